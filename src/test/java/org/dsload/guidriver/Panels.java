package org.dsload.guidriver;

import java.awt.Component;
import java.awt.Container;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.function.Consumer;

import javax.imageio.ImageIO;
import javax.swing.AbstractButton;
import javax.swing.CellRendererPane;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.border.Border;
import javax.swing.border.CompoundBorder;
import javax.swing.border.TitledBorder;
import javax.swing.text.JTextComponent;

import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.apache.jmeter.util.JMeterUtils;

/**
 * What a user sees in an element's panel: its texts, checked for the marks JMeter leaves when a
 * resource is missing, its picture, and its fields, filled as a user types.
 *
 * <p>JMeter's marks: a key missing from JMeter's own messages shows as {@code [res_key=key]}; for
 * a TestBean, a missing {@code displayName} leaves the class's simple name as the element's
 * title, a missing {@code <field>.displayName} the raw property name as the field's label
 * ({@code "socketTimeout:"}), a missing {@code <field>.shortDescription} the label again as the
 * tooltip, and a missing {@code <group>.displayName} the raw group name as the box's title.
 */
final class Panels {
    private Panels() {
    }

    /** Every text shown: labels, buttons, tooltips and titled borders; runs on the event thread. */
    static List<String[]> texts(Component root) {
        List<String[]> texts = new ArrayList<>();
        walk(root, c -> {
            if (c instanceof JLabel l) {
                add(texts, "label", l.getText());
            } else if (c instanceof AbstractButton b) {
                add(texts, "button", b.getText());
            }
            if (c instanceof JComponent j) {
                add(texts, "tooltip", j.getToolTipText());
                for (String title : titles(j.getBorder())) {
                    add(texts, "title", title);
                }
            }
        });
        return texts;
    }

    private static void add(List<String[]> texts, String kind, String text) {
        if (text != null && !text.isBlank()) {
            texts.add(new String[] {kind, text});
        }
    }

    private static List<String> titles(Border border) {
        List<String> titles = new ArrayList<>();
        if (border instanceof TitledBorder t && t.getTitle() != null) {
            titles.add(t.getTitle());
            titles.addAll(titles(t.getBorder()));
        } else if (border instanceof CompoundBorder c) {
            titles.addAll(titles(c.getOutsideBorder()));
            titles.addAll(titles(c.getInsideBorder()));
        }
        return titles;
    }

    static void walk(Component c, Consumer<Component> visit) {
        if (c instanceof CellRendererPane) {
            return; // a list's or combo box's renderer: it holds whatever item was painted last
        }
        visit.accept(c);
        if (c instanceof Container container) {
            for (Component child : container.getComponents()) {
                walk(child, visit);
            }
        }
    }

    /**
     * The missing-resource marks in a panel of an element of this class; runs on the event thread.
     * For a TestBean, also every field the form lacks.
     */
    static List<String> missingResources(Component panel, Class<?> elementClass) throws Exception {
        List<String> problems = new ArrayList<>();
        Set<String> rawKeys = new HashSet<>();
        rawKeys.add(elementClass.getSimpleName());
        Map<String, String> fieldLabels = new LinkedHashMap<>();
        Set<String> tooltipsWanted = new HashSet<>();
        try {
            ResourceBundle own = ResourceBundle.getBundle(elementClass.getName() + "Resources", JMeterUtils.getLocale(),
                    elementClass.getClassLoader());
            for (Enumeration<String> keys = own.getKeys(); keys.hasMoreElements();) {
                rawKeys.add(keys.nextElement());
            }
        } catch (MissingResourceException e) {
            problems.add("no resource bundle " + elementClass.getName() + "Resources");
        }
        if (TestBean.class.isAssignableFrom(elementClass)) {
            BeanInfo info = Introspector.getBeanInfo(elementClass);
            for (PropertyDescriptor p : info.getPropertyDescriptors()) {
                if (p.isHidden() || p.getReadMethod() == null || p.getWriteMethod() == null) {
                    continue;
                }
                rawKeys.add(p.getName());
                Object group = p.getValue(GenericTestBeanCustomizer.GROUP);
                if (group instanceof String g && !g.isEmpty()) {
                    rawKeys.add(g);
                }
                fieldLabels.put(p.getName(), p.getDisplayName() + ":");
                tooltipsWanted.add(p.getDisplayName());
            }
        }
        Set<String> labelsShown = new HashSet<>();
        for (String[] t : texts(panel)) {
            String kind = t[0];
            String text = t[1];
            String plain = text.replaceAll("<[^>]*>", "").trim();
            String bare = plain.endsWith(":") ? plain.substring(0, plain.length() - 1) : plain;
            if (text.contains(JMeterUtils.RES_KEY_PFX)) {
                problems.add(kind + " shows a missing JMeter resource: " + text);
            } else if (rawKeys.contains(bare)) {
                problems.add(kind + " shows the raw key '" + bare + "' instead of its text (missing "
                        + (kind.equals("title") ? bare + ".displayName" : "resource") + ")");
            } else if (kind.equals("tooltip") && tooltipsWanted.contains(plain)) {
                problems.add("tooltip '" + plain + "' only repeats the field's label (missing shortDescription)");
            }
            if (kind.equals("label")) {
                labelsShown.add(text);
            }
        }
        fieldLabels.forEach((field, label) -> {
            if (!labelsShown.contains(label)) {
                problems.add("field '" + field + "' is not on the form (no label '" + label + "')");
            }
        });
        return problems;
    }

    /** Paints the component into a PNG; runs on the event thread. */
    static Path screenshot(JComponent component, Path file) throws IOException {
        int width = component.getWidth();
        int height = component.getHeight();
        if (width <= 0 || height <= 0) {
            throw new IllegalStateException("the panel has no size (" + width + "x" + height + "): it was not laid out");
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            component.paintAll(g);
        } finally {
            g.dispose();
        }
        Files.createDirectories(file.getParent());
        ImageIO.write(image, "png", file.toFile());
        return file;
    }

    /**
     * Types a value into every field of a TestBean form as a user does: into the text field, or,
     * for a field with listed choices, picks the combo box's "Edit" entry and types into it.
     * Returns the labels of the fields that took the text, and of those that would not.
     */
    static Filled fill(Component panel, java.util.function.Function<String, String> valueForLabel) {
        Filled filled = new Filled(new ArrayList<>(), new ArrayList<>());
        List<Component> forms = new ArrayList<>();
        walk(panel, c -> {
            if (c instanceof GenericTestBeanCustomizer) {
                forms.add(c);
            }
        });
        for (Component form : forms) {
            walk(form, c -> {
                if (c instanceof JLabel label && label.getLabelFor() != null && label.getText() != null
                        && label.getText().endsWith(":")) {
                    String text = label.getText().substring(0, label.getText().length() - 1);
                    (type(label.getLabelFor(), valueForLabel.apply(text)) ? filled.typed() : filled.refused()).add(text);
                }
            });
        }
        return filled;
    }

    record Filled(List<String> typed, List<String> refused) {
    }

    private static boolean type(Component editor, String value) {
        List<Component> found = new ArrayList<>();
        walk(editor, c -> {
            if (c instanceof JComboBox<?> || c instanceof JTextComponent) {
                found.add(c);
            }
        });
        for (Component c : found) {
            if (c instanceof JComboBox<?> combo) {
                return typeIntoCombo(combo, value);
            }
        }
        for (Component c : found) {
            if (c instanceof JTextComponent text && text.isEditable()) {
                text.setText(value);
                return true;
            }
        }
        return false;
    }

    private static boolean typeIntoCombo(JComboBox<?> combo, String value) {
        if (!combo.isEditable()) {
            String edit = JMeterUtils.getResString("property_edit");
            int index = -1;
            for (int i = 0; i < combo.getItemCount(); i++) {
                if (String.valueOf(combo.getItemAt(i)).equals(edit)) {
                    index = i;
                }
            }
            if (index < 0) {
                return false; // only the listed choices: no way to enter ${...}
            }
            combo.setSelectedIndex(index);
        }
        if (!combo.isEditable()) {
            return false;
        }
        combo.getEditor().setItem(value);
        combo.setSelectedItem(combo.getEditor().getItem()); // what Enter in the editor does
        return true;
    }
}

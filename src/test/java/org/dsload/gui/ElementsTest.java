package org.dsload.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.gui.menu.StaticJMeterGUIComponent;
import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.targets.Checkout;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user meets in JMeter's Add menu and in an element's form, checked for every element in
 * the plugin: its name, the menu it is in (the one docs/elements.md gives), a label, a tooltip, a
 * group and a default for every field, and fields that take {@code ${...}}.
 */
class ElementsTest {
    /** The page that describes every element, each under its store. */
    private static final String ELEMENTS_DOC = "docs/elements.md";
    /** "- **dsload Redis Connection** (Config Element): ..." in {@link #ELEMENTS_DOC}. */
    private static final Pattern DOC_ELEMENT = Pattern.compile("(?m)^- \\*\\*(dsload [^*]+)\\*\\* \\(([^)]+)\\)");
    /** A menu and its elements: "- Timer: dsload Constant Arrival Rate, dsload Open Model Guard", continued on indented lines. */
    private static final Pattern BUNDLE_README_MENU = Pattern.compile("(?m)^- ([A-Z][A-Za-z ]+): (dsload [^\\n]*(?:\\n  [^\\n]+)*)");

    @BeforeAll
    static void jmeter() {
        JMeterRuntime.init();
    }

    @Test
    void thePluginHasElementsOfEveryKindItShips() {
        List<Class<?>> beans = ElementClasses.testBeans();
        assertTrue(beans.stream().anyMatch(c -> c.getSimpleName().equals("RedisSampler")), beans.toString());
        assertTrue(beans.stream().anyMatch(c -> c.getSimpleName().equals("ZooKeeperConnection")), beans.toString());
        assertTrue(ElementClasses.guiComponents().contains(SummaryVisualizer.class));
    }

    @Test
    void everyElementIsInTheAddMenuTheElementsPageNames() throws IOException {
        Map<String, String> documented = documentedElements();
        List<String> problems = new ArrayList<>();
        for (Class<?> c : ElementClasses.all()) {
            // What MenuFactory builds for a class it found on JMeter's search path.
            JMeterGUIComponent menuEntry;
            try {
                menuEntry = menuEntry(c);
            } catch (RuntimeException e) {
                // MenuFactory lets this escape, and then the GUI has no Add menu at all.
                problems.add("JMeter cannot put " + c.getName() + " into a menu: " + e);
                continue;
            }
            String label = menuEntry.getStaticLabel();
            Collection<String> categories = menuEntry.getMenuCategories();
            if (categories == null || categories.size() != 1) {
                problems.add(c.getName() + " is in the menus " + categories + " instead of exactly one");
                continue;
            }
            String menu = JMeterUtils.getResString(categories.iterator().next());
            if (!label.startsWith("dsload ")) {
                problems.add(c.getName() + " is called '" + label + "' in the menu; dsload elements start with 'dsload '");
            }
            String listedMenu = documented.get(label);
            if (listedMenu == null) {
                problems.add(ELEMENTS_DOC + " does not list " + c.getName() + ": add '- **" + label + "** (" + menu
                        + "): ...' to the section of its store");
            } else if (!listedMenu.equals(menu)) {
                problems.add(ELEMENTS_DOC + " puts '" + label + "' under " + listedMenu + " but JMeter shows it under " + menu);
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void everyFieldOfEveryTestBeanHasALabelATooltipAGroupAndADefault() throws Exception {
        List<String> problems = fieldProblems(ElementClasses.testBeans());
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void elementsKeptForOlderPlansAreInNoMenuAndTheirFormsAreComplete() throws Exception {
        List<Class<?>> kept = ElementClasses.deprecatedTestBeans();
        assertFalse(kept.isEmpty(), "the YCSB Workload of plans saved before the Cassandra settings had an element");
        for (Class<?> c : kept) {
            // MenuFactory lists a class with this annotation whatever its bean descriptor says
            assertTrue(c.getAnnotation(TestElementMetadata.class) == null, c + " must not carry TestElementMetadata");
            assertTrue(Introspector.getBeanInfo(c).getBeanDescriptor().isHidden(), c + " must be hidden from the Add menus");
        }
        List<String> problems = fieldProblems(kept);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** What a form of these TestBeans would miss: a label, tooltip, group or default of a field, text fields. */
    private static List<String> fieldProblems(List<Class<?>> beans) throws Exception {
        List<String> problems = new ArrayList<>();
        for (Class<?> c : beans) {
            assertTrue(hasBeanInfo(c), c.getName() + " needs a BeanInfo (extending core.DsloadBeanInfo)");
            BeanInfo info = Introspector.getBeanInfo(c);
            ResourceBundle bundle = (ResourceBundle) info.getBeanDescriptor().getValue(BeanInfoSupport.RESOURCE_BUNDLE);
            if (bundle == null || !bundle.containsKey("displayName")) {
                problems.add(c.getName() + ": no displayName in " + c.getName() + "Resources.properties");
                continue;
            }
            Set<String> labels = new HashSet<>();
            for (PropertyDescriptor p : info.getPropertyDescriptors()) {
                if (p.isHidden() || p.getReadMethod() == null || p.getWriteMethod() == null) {
                    continue; // not a field: JMeter shows no editor for it
                }
                String where = c.getSimpleName() + "." + p.getName();
                check(problems, bundle, p.getName() + ".displayName", where + " has no label");
                check(problems, bundle, p.getName() + ".shortDescription", where + " has no tooltip");
                String group = (String) p.getValue(GenericTestBeanCustomizer.GROUP);
                if (group == null || group.isEmpty()) {
                    problems.add(where + " is in no group");
                } else {
                    check(problems, bundle, group + ".displayName", where + ": group '" + group + "' has no title");
                }
                if (!labels.add(p.getDisplayName())) {
                    problems.add(where + " shares its label '" + p.getDisplayName() + "' with another field");
                }
                if (p.getValue(GenericTestBeanCustomizer.DEFAULT) == null) {
                    problems.add(where + " has no default value");
                }
                if (p.getPropertyType() != String.class) {
                    problems.add(where + " is a " + p.getPropertyType().getSimpleName()
                            + ": fields are text, so that ${...} is accepted (see core.Fields)");
                }
                if (p.getValue(GenericTestBeanCustomizer.TAGS) != null
                        && !Boolean.FALSE.equals(p.getValue(GenericTestBeanCustomizer.NOT_OTHER))) {
                    problems.add(where + " offers a fixed list: its combo box must also take ${...}");
                }
            }
        }
        return problems;
    }

    @Test
    void everyGuiComponentTakesItsTextFromItsOwnBundle() {
        for (Class<?> c : ElementClasses.guiComponents()) {
            ResourceBundle bundle = ResourceBundle.getBundle(c.getName() + "Resources");
            assertTrue(bundle.containsKey("displayName"), c.getName());
            assertNotNull(c.getAnnotation(TestElementMetadata.class),
                    c.getName() + " needs @TestElementMetadata(labelResource = \"displayName\") for its menu entry");
        }
    }

    @Test
    void theBundleReadmeListsEveryElementUnderItsMenuAndNoOther() throws Exception {
        Map<String, Set<String>> shipped = new TreeMap<>();
        for (Class<?> c : ElementClasses.all()) {
            JMeterGUIComponent entry = menuEntry(c);
            String menu = JMeterUtils.getResString(entry.getMenuCategories().iterator().next());
            shipped.computeIfAbsent(menu, m -> new TreeSet<>()).add(entry.getStaticLabel());
        }
        assertEquals(shipped, bundleReadmeElements(), "jmeter-plugins/README.md's list of elements, by Add menu");
    }

    /** "- Sampler: dsload CQL Request, dsload Fault Schedule, ..." lines, a list that may wrap, in jmeter-plugins/README.md. */
    private static Map<String, Set<String>> bundleReadmeElements() throws IOException {
        String readme = Files.readString(Checkout.basedir().resolve("jmeter-plugins/README.md"), StandardCharsets.UTF_8);
        Map<String, Set<String>> listed = new TreeMap<>();
        Matcher m = BUNDLE_README_MENU.matcher(readme);
        while (m.find()) {
            Set<String> labels = new TreeSet<>();
            for (String label : m.group(2).replaceAll("\\s+", " ").split(",")) {
                labels.add(label.trim());
            }
            listed.put(m.group(1), labels);
        }
        return listed;
    }

    @Test
    void theElementsPageListsNoElementThePluginLacks() throws Exception {
        Set<String> shipped = new HashSet<>();
        for (Class<?> c : ElementClasses.all()) {
            shipped.add(menuEntry(c).getStaticLabel());
        }
        for (String documented : documentedElements().keySet()) {
            assertTrue(shipped.contains(documented), ELEMENTS_DOC + " lists '" + documented + "', which the plugin lacks");
        }
    }

    private static boolean hasBeanInfo(Class<?> c) {
        try {
            return BeanInfoSupport.class.isAssignableFrom(Class.forName(c.getName() + "BeanInfo", false, c.getClassLoader()));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static void check(List<String> problems, ResourceBundle bundle, String key, String problem) {
        try {
            if (bundle.getString(key).isBlank()) {
                problems.add(problem + " (" + key + " is blank)");
            }
        } catch (MissingResourceException e) {
            problems.add(problem + " (" + key + " missing)");
        }
    }

    private static JMeterGUIComponent menuEntry(Class<?> c) {
        TestElementMetadata metadata = c.getAnnotation(TestElementMetadata.class);
        if (metadata != null) {
            return new StaticJMeterGUIComponent(c, metadata);
        }
        if (TestBean.class.isAssignableFrom(c)) {
            return new TestBeanGUI(c);
        }
        try {
            return (JMeterGUIComponent) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> documentedElements() throws IOException {
        String doc = Files.readString(Checkout.basedir().resolve(ELEMENTS_DOC), StandardCharsets.UTF_8);
        Map<String, String> elements = new LinkedHashMap<>();
        Matcher m = DOC_ELEMENT.matcher(doc);
        while (m.find()) {
            elements.put(m.group(1), m.group(2));
        }
        assertFalse(elements.isEmpty(), ELEMENTS_DOC + " lists no elements as '- **dsload ...** (Menu)'");
        return elements;
    }
}

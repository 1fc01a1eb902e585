package org.dsload.guidriver;

import java.awt.event.ActionEvent;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.JComponent;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JTextArea;

import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.action.ActionRouter;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jmeter.visualizers.gui.AbstractVisualizer;
import org.apache.jorphan.collections.HashTree;
import org.dsload.report.Summary;
import org.dsload.report.SummaryText;

/**
 * Uses JMeter's GUI as a new user would and writes down what went wrong: finds every dsload
 * element in the Add menus, opens each plan and selects each dsload element in it, adds every
 * element to a new plan, types {@code ${...}} into each of its fields, saves and reopens the plan,
 * and runs a plan with the Summary listener. Every panel is checked for missing resources and
 * painted into a PNG; every dialog and every warning in jmeter.log is a problem.
 */
public final class GuiDriver {
    private static final Duration GUI_START = Duration.ofSeconds(90);
    private static final String[] CATEGORIES = {MenuFactory.THREADS, MenuFactory.FRAGMENTS, MenuFactory.CONFIG_ELEMENTS,
        MenuFactory.TIMERS, MenuFactory.PRE_PROCESSORS, MenuFactory.SAMPLERS, MenuFactory.POST_PROCESSORS,
        MenuFactory.ASSERTIONS, MenuFactory.CONTROLLERS, MenuFactory.LISTENERS, MenuFactory.NON_TEST_ELEMENTS};

    private final Path out = Path.of(System.getProperty("dsload.gui.out"));
    private final Report report = new Report(out.resolve("report.tsv"));
    private final LogWatch log = new LogWatch(Path.of(System.getProperty("dsload.gui.log")));
    private final DialogWatch dialogs = new DialogWatch(report);
    private final Map<Class<?>, JMenuItem> menuItems = new LinkedHashMap<>();

    private GuiDriver() {
    }

    public static void main(String[] args) {
        GuiDriver driver = new GuiDriver();
        int code;
        try {
            driver.run();
            code = driver.report.problems() == 0 ? 0 : 1;
        } catch (Throwable t) { // NOSONAR whatever stops the driver is the finding
            driver.report.problem("driver", stackTrace(t));
            code = 2;
        }
        try {
            driver.report.close();
        } catch (IOException e) {
            code = 2;
        }
        Runtime.getRuntime().halt(code);
    }

    private void run() throws Exception {
        Edt.await("JMeter's main window", GUI_START, () -> GuiPackage.getInstance() != null
                && GuiPackage.getInstance().getMainFrame() != null && GuiPackage.getInstance().getMainFrame().isShowing());
        Edt.run(() -> {
            GuiPackage.getInstance().getMainFrame().setBounds(0, 0, 1280, 860);
            GuiPackage.getInstance().getMainFrame().validate();
        });
        Edt.settle();
        dialogs.start();
        warnings("starting JMeter with dsload");

        List<Class<?>> elements = PluginElements.all();
        report.line("checked", "plugin", elements.size() + " elements in " + PluginElements.jar().getFileName());
        step("menus");
        findInMenus(elements);

        for (String plan : System.getProperty("dsload.gui.plans").split(File.pathSeparator)) {
            openPlan(Path.of(plan));
        }

        step("detector self-check");
        selfCheck();

        step("new plan");
        everyElementInANewPlan(elements);

        String live = System.getProperty("dsload.gui.live.plan");
        if (live != null && !live.isBlank()) {
            step("live summary");
            liveSummary(Path.of(live));
        }
        dialogs.stop();
        Edt.run(dialogs::closeDialogs);
        warnings("the end");
        report.line("done", "driver", "");
    }

    private void step(String name) {
        dialogs.step(name);
        report.line("step", name, "");
    }

    /** Every warning or error jmeter.log gained during a step is a problem of that step. */
    private void warnings(String during) {
        for (String warning : log.newWarnings()) {
            report.problem("jmeter.log during " + during, warning);
        }
    }

    // ---- menus -------------------------------------------------------------------------------

    private void findInMenus(List<Class<?>> elements) {
        Map<String, List<String>> menusOf = new LinkedHashMap<>();
        Edt.run(() -> {
            for (String category : CATEGORIES) {
                JMenu menu = MenuFactory.makeMenu(category, ActionNames.ADD);
                for (JMenuItem item : Tree.items(menu)) {
                    if (item.getName() != null) {
                        menusOf.computeIfAbsent(item.getName(), k -> new ArrayList<>()).add(category);
                        elements.stream().filter(c -> c.getName().equals(item.getName()))
                                .findFirst().ifPresent(c -> menuItems.put(c, item));
                    }
                }
            }
        });
        for (Class<?> c : elements) {
            List<String> menus = menusOf.getOrDefault(c.getName(), List.of());
            if (menus.size() != 1) {
                report.problem("menu " + c.getName(), "in " + menus.size() + " Add menus " + menus + " instead of one");
                continue;
            }
            JMenuItem item = menuItems.get(c);
            report.line("menu", item.getText(), JMeterUtils.getResString(menus.get(0)));
        }
        warnings("building the menus");
    }

    // ---- plans ---------------------------------------------------------------------------------

    private void openPlan(Path plan) throws Exception {
        String name = plan.getFileName().toString().replaceFirst("\\.jmx$", "");
        step("open " + plan.getFileName());
        Tree.load(plan);
        warnings("opening " + plan.getFileName());
        int index = 0;
        for (JMeterTreeNode node : Tree.nodes()) {
            if (Tree.isDsload(node.getTestElement())) {
                index++;
                showAndCheck(node, out.resolve("screenshots").resolve(name)
                        .resolve(String.format("%02d-%s.png", index, slug(node.getName()))), name);
            }
        }
        report.line("checked", "plan " + plan.getFileName(), index + " dsload elements");
        warnings("selecting the elements of " + plan.getFileName());
    }

    private void showAndCheck(JMeterTreeNode node, Path png, String where) {
        String subject = where + " / " + node.getName();
        try {
            JComponent panel = Tree.select(node);
            Class<?> elementClass = elementClass(node.getTestElement());
            List<String> problems = Edt.call(() -> {
                try {
                    panel.getTopLevelAncestor().validate();
                    return Panels.missingResources(panel, elementClass);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            problems.forEach(p -> report.problem(subject, p));
            Edt.run(() -> {
                try {
                    Panels.screenshot(panel, png);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            report.line("shot", subject, out.relativize(png).toString());
            report.line("checked", "element", subject);
        } catch (RuntimeException e) {
            report.problem(subject, "failed to render: " + stackTrace(e));
        }
    }

    /** The class whose resources the panel shows: the TestBean, or the GUI class of a listener. */
    private static Class<?> elementClass(TestElement element) {
        if (element instanceof TestBean) {
            return element.getClass();
        }
        try {
            return Class.forName(element.getPropertyAsString(TestElement.GUI_CLASS), false,
                    GuiDriver.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- the detector checks itself --------------------------------------------------------

    private void selfCheck() {
        Edt.run(() -> GuiPackage.getInstance().clearTestPlan());
        Edt.settle();
        JMeterTreeNode planNode = Tree.planNode();
        JMeterTreeNode node = Edt.call(() -> {
            try {
                TestElement element = GuiPackage.getInstance().createTestElement(TestBeanGUI.class, UnlabelledBean.class);
                element.setName("unlabelled");
                return GuiPackage.getInstance().getTreeModel().addComponent(element, planNode);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JComponent panel = Tree.select(node);
        List<String> found = Edt.call(() -> {
            try {
                return Panels.missingResources(panel, UnlabelledBean.class);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        found.forEach(p -> report.line("selfcheck", "unlabelled", p));
        Edt.run(() -> GuiPackage.getInstance().clearTestPlan());
        Edt.settle();
        warnings("the detector's self-check");
    }

    // ---- every element in a new plan, saved and reopened -----------------------------------

    private void everyElementInANewPlan(List<Class<?>> elements) throws Exception {
        Edt.run(() -> GuiPackage.getInstance().clearTestPlan());
        Edt.settle();
        JMeterTreeNode plan = Tree.planNode();
        JMeterTreeNode threads = Tree.add(plan, Tree.threadGroupItem());
        Map<JMeterTreeNode, Class<?>> added = new LinkedHashMap<>();
        for (Class<?> c : elements) {
            JMenuItem item = menuItems.get(c);
            if (item == null) {
                continue; // reported with the menus
            }
            String slug = slug(item.getText());
            JMeterTreeNode node = Tree.add(threads, item);
            added.put(node, c);
            showAndCheck(node, out.resolve("screenshots").resolve("new").resolve(slug + ".png"), "new plan");
            if (TestBean.class.isAssignableFrom(c)) {
                JComponent panel = Tree.select(node);
                Panels.Filled filled = Edt.call(() -> Panels.fill(panel,
                        label -> "${" + slug.replace('-', '_') + "_" + label.replaceAll("\\W+", "_") + "}"));
                filled.refused().forEach(f -> report.problem(item.getText(), "field '" + f + "' does not take ${...}"));
                report.line("checked", "typed ${...} into", item.getText() + ": " + filled.typed().size() + " fields");
            }
        }
        HashTree built = Tree.shownOnce();
        for (JMeterTreeNode node : added.keySet()) {
            expressionsKept(node.getTestElement(), "as typed");
        }

        Path saved = out.resolve("every-element.jmx");
        try (OutputStream file = Files.newOutputStream(saved)) {
            SaveService.saveTree(built, file);
        }
        HashTree reloaded = SaveService.loadTree(saved.toFile());
        List<String> differences = new ArrayList<>();
        PlanComparison.compare(built, reloaded, differences);
        differences.forEach(d -> report.problem("saved and reloaded", d));
        report.line("checked", "round trip", saved.getFileName() + ": " + PlanComparison.count(built) + " elements");

        // Reopened in the GUI, each form shows what was saved and puts back the same values.
        Tree.load(saved);
        HashTree reopened = Tree.shownOnce();
        differences.clear();
        PlanComparison.compare(built, reopened, differences);
        differences.forEach(d -> report.problem("reopened in the GUI and shown", d));
        report.line("checked", "round trip through the GUI", PlanComparison.count(reopened) + " elements");
        warnings("building, saving and reopening a plan with every element");
    }

    private void expressionsKept(TestElement element, String when) {
        if (!(element instanceof TestBean)) {
            return;
        }
        try {
            for (java.beans.PropertyDescriptor p : java.beans.Introspector.getBeanInfo(element.getClass())
                    .getPropertyDescriptors()) {
                if (p.isHidden() || p.getReadMethod() == null || p.getWriteMethod() == null) {
                    continue;
                }
                String value = element.getPropertyAsString(p.getName());
                if (!value.startsWith("${") || !value.endsWith("}")) {
                    report.problem(element.getName() + " " + when,
                            "field '" + p.getDisplayName() + "' holds '" + value + "' instead of the ${...} typed into it");
                }
            }
        } catch (java.beans.IntrospectionException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- a run with the Summary listener --------------------------------------------------

    private void liveSummary(Path plan) throws Exception {
        Tree.load(plan);
        JMeterTreeNode planNode = Tree.planNode();
        JMenuItem summaryItem = menuItems.entrySet().stream()
                .filter(e -> AbstractVisualizer.class.isAssignableFrom(e.getKey()))
                .map(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new IllegalStateException("no dsload listener in the menus"));
        JMeterTreeNode listener = Tree.add(planNode, summaryItem);
        // A name without a folder, as users often give it: JMeter writes it into its working folder.
        String fileName = "summary-listener.jtl";
        Path jtl = Path.of(fileName).toAbsolutePath();
        Files.deleteIfExists(jtl);
        JComponent panel = Tree.select(listener);
        Edt.run(() -> ((AbstractVisualizer) panel).setFile(fileName));
        Tree.select(planNode);
        Tree.select(listener);

        warnings("adding the Summary listener");
        Edt.run(() -> ActionRouter.getInstance().doActionNow(
                new ActionEvent(GuiPackage.getInstance().getMainFrame(), 0, ActionNames.ACTION_START)));
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        boolean ended = false;
        while (!ended && System.nanoTime() < deadline) {
            Edt.sleep(250);
            ended = log.sawLine("Notifying test listeners of end of test");
        }
        if (!ended) {
            report.problem("live summary", "the test did not end within 90 s");
            return;
        }
        // the listener refreshes once a second: what it shows is read until it matches the file, or 10 s
        String shown;
        Summary fromFile;
        String expected;
        long shownBy = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            shown = Edt.call(() -> {
                List<String> texts = new ArrayList<>();
                Panels.walk(panel, c -> {
                    if (c instanceof JTextArea area) {
                        texts.add(area.getText());
                    }
                });
                return String.join("\n", texts);
            });
            fromFile = Summary.of(jtl);
            expected = SummaryText.blocks(fromFile.labels(), fromFile.total());
            if (shown.endsWith(expected) || System.nanoTime() - shownBy > 0) {
                break;
            }
            Edt.sleep(100);
        }
        if (fromFile.total().requests() == 0) {
            report.problem("live summary", "the run wrote no samples to " + jtl);
        } else if (!shown.endsWith(expected)) {
            report.problem("live summary", "the listener shows\n" + shown + "\nbut dsload summary of its file says\n"
                    + expected);
        } else {
            report.line("checked", "live summary", fromFile.total().requests() + " requests, "
                    + fromFile.labels().size() + " labels, " + SummaryText.resolution(fromFile.total()).trim());
        }
        Edt.run(() -> {
            try {
                panel.getTopLevelAncestor().validate();
                Panels.screenshot(panel, out.resolve("screenshots").resolve("live").resolve("summary-listener.png"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        report.line("shot", "live summary", "screenshots/live/summary-listener.png");
        warnings("running " + plan.getFileName() + " with the Summary listener");
    }

    // ---- small things ------------------------------------------------------------------------

    static String slug(String name) {
        String s = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return s.isEmpty() ? "element" : s;
    }

    static String stackTrace(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        String s = w.toString();
        return s.length() > 3000 ? s.substring(0, 3000) : s;
    }
}

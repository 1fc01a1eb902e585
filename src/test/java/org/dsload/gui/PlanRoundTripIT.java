package org.dsload.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;
import org.dsload.guidriver.PlanComparison;
import org.dsload.targets.Checkout;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A plan with every dsload element, each made as the GUI makes it (its form's defaults) and every
 * field then set to a {@code ${__P(...)}} expression, saved with JMeter's SaveService and loaded
 * back: it must come back element for element, property for property. Runs without a display;
 * GuiIT does the same through the GUI itself.
 */
class PlanRoundTripIT {

    @BeforeAll
    static void saveService() throws IOException {
        JMeterRuntime.init();
        // The element aliases and renamings SaveService reads, from the JMeter home the build made.
        Path bin = Checkout.jmeterHome().resolve("bin");
        Path here = Path.of(JMeterUtils.getJMeterHome(), "bin");
        for (String name : List.of("saveservice.properties", "upgrade.properties")) {
            if (!Files.exists(here.resolve(name))) {
                Files.copy(bin.resolve(name), here.resolve(name));
            }
        }
    }

    @Test
    void aPlanWithEveryElementComesBackAsItWasSaved() throws Exception {
        TestPlan plan = withGui(new TestPlan("every dsload element"), "org.apache.jmeter.control.gui.TestPlanGui");
        LoopController loop = withGui(new LoopController(), "org.apache.jmeter.control.gui.LoopControlPanel");
        loop.setLoops(1);
        ThreadGroup threads = withGui(new ThreadGroup(), "org.apache.jmeter.threads.gui.ThreadGroupGui");
        threads.setName("threads");
        threads.setSamplerController(loop);
        HashTree tree = new ListedHashTree();
        HashTree elements = tree.add(plan).add(threads);
        List<Class<?>> classes = ElementClasses.all();
        int expressions = 0;
        for (Class<?> c : classes) {
            TestElement element = createdAsTheGuiDoes(c);
            element.setName(c.getSimpleName());
            if (element instanceof TestBean) {
                for (PropertyDescriptor p : Introspector.getBeanInfo(c).getPropertyDescriptors()) {
                    if (!p.isHidden() && p.getReadMethod() != null && p.getWriteMethod() != null) {
                        element.setProperty(p.getName(), "${__P(" + p.getName() + "," + element.getPropertyAsString(p.getName()) + ")}");
                        expressions++;
                    }
                }
            }
            elements.add(element);
        }
        Path file = Checkout.target().resolve("round-trip/every-element.jmx");
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            SaveService.saveTree(tree, out);
        }
        HashTree loaded = SaveService.loadTree(file.toFile());

        List<String> differences = new ArrayList<>();
        PlanComparison.compare(tree, loaded, differences);
        assertTrue(differences.isEmpty(), String.join("\n", differences));
        assertEquals(classes.size() + 2, PlanComparison.count(loaded));
        assertTrue(expressions > 50, "fields set to expressions: " + expressions);
        String xml = Files.readString(file);
        assertTrue(xml.contains("<stringProp name=\"socketTimeout\">${__P(socketTimeout,2000)}</stringProp>"), xml);
    }

    @Test
    void everyTestBeanGetsEveryFieldsDefaultFromItsForm() throws Exception {
        for (Class<?> c : ElementClasses.testBeans()) {
            TestElement element = createdAsTheGuiDoes(c);
            Map<String, String> properties = PlanComparison.properties(element);
            for (PropertyDescriptor p : Introspector.getBeanInfo(c).getPropertyDescriptors()) {
                if (!p.isHidden() && p.getReadMethod() != null && p.getWriteMethod() != null) {
                    assertEquals(String.valueOf(p.getValue("default")), properties.get(p.getName()),
                            c.getSimpleName() + "." + p.getName());
                }
            }
        }
    }

    /** JMeter's own elements, as its GUI makes them: they name their GUI class. */
    private static <T extends TestElement> T withGui(T element, String guiClass) {
        element.setProperty(TestElement.GUI_CLASS, guiClass);
        element.setProperty(TestElement.TEST_CLASS, element.getClass().getName());
        return element;
    }

    /** What Add > menu > element makes: the element with its form's default values. */
    private static TestElement createdAsTheGuiDoes(Class<?> c) throws ReflectiveOperationException {
        if (TestBean.class.isAssignableFrom(c)) {
            return new TestBeanGUI(c).createTestElement();
        }
        return ((JMeterGUIComponent) c.getDeclaredConstructor().newInstance()).createTestElement();
    }
}

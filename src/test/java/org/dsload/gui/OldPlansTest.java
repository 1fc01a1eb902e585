package org.dsload.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.dsload.testing.JMeterRuntime;
import org.dsload.ycsb.YcsbBindingProvider;
import org.dsload.ycsb.YcsbSampler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Plans saved before elements were renamed open as today's elements: copies of cassandra-ycsb.jmx
 * and redis-ycsb.jmx as they were saved then (the YCSB elements under org.dsload.cassandra, the
 * Cassandra Session as CassandraSession), loaded with JMeter's SaveService. Each dsload element
 * comes back as the class the upgrade table names, an element a plan can hold (in the Add menus,
 * or deprecated and hidden), with every field it was saved with; so does every other element the
 * upgrade table renames. Running such plans against a server is RedisYcsbPlanIT's and
 * CassandraYcsbPlanIT's part.
 */
class OldPlansTest {
    private static final String UPGRADES = "META-INF/resources/org.apache.jmeter.nameupdater.properties";

    @BeforeAll
    static void saveService() throws IOException {
        JMeterRuntime.initSaveService();
    }

    @ParameterizedTest
    @ValueSource(strings = {"old-cassandra-ycsb.jmx", "old-redis-ycsb.jmx"})
    void everyElementOfAnOldPlanLoadsAsTodaysElementWithEveryField(String name) throws Exception {
        File file = plan(name);
        List<Saved> saved = savedDsloadElements(file);
        assertTrue(saved.stream().anyMatch(s -> s.testClass().equals("org.dsload.cassandra.YcsbSampler")),
                "the plan as it was saved: " + saved);
        Properties upgrades = new Properties();
        try (InputStream in = resource(UPGRADES)) {
            upgrades.load(in);
        }
        Map<String, TestElement> loaded = new HashMap<>();
        collect(SaveService.loadTree(file), loaded);
        List<Class<?>> inMenus = ElementClasses.testBeans();
        List<Class<?>> hidden = ElementClasses.deprecatedTestBeans();

        for (Saved s : saved) {
            TestElement element = loaded.get(s.name());
            assertNotNull(element, s.name() + " is in the loaded plan");
            Class<?> now = element.getClass();
            assertEquals(upgrades.getProperty(s.testClass(), s.testClass()), now.getName(), s.name());
            assertFalse(upgrades.containsKey(now.getName()), s.name() + " loads as a current class, not " + now);
            assertTrue(inMenus.contains(now) || hidden.contains(now), now + " is an element of the plugin");
            if (hidden.contains(now)) {
                // JMeter's MenuFactory lists a class with TestElementMetadata whatever its bean descriptor says
                assertNull(now.getAnnotation(TestElementMetadata.class), now + " carries no menu metadata");
                assertTrue(Introspector.getBeanInfo(now).getBeanDescriptor().isHidden(), now + " is in no Add menu");
            }
            assertTrue(element instanceof TestBean, now + " is a TestBean");
            Map<String, PropertyDescriptor> fields = fields(now);
            TestBeanHelper.prepare(element);
            for (Map.Entry<String, String> field : s.fields().entrySet()) {
                PropertyDescriptor p = fields.get(field.getKey());
                assertNotNull(p, s.name() + ": field " + field.getKey() + " is a field of " + now.getSimpleName());
                assertEquals(field.getValue(), p.getReadMethod().invoke(element),
                        s.name() + ": field " + field.getKey() + " as saved");
            }
            if (element instanceof YcsbSampler sampler) {
                // plans saved before the Binding field existed run the cassandra binding
                String binding = sampler.getBinding() == null || sampler.getBinding().isBlank() ? "cassandra"
                        : sampler.getBinding();
                assertTrue(List.of(YcsbBindingProvider.names()).contains(binding),
                        s.name() + ": binding " + binding + " is registered");
            }
        }
    }

    /** Every element the upgrade table renames opens from a plan that names it the old way. */
    @Test
    void everyRenamedElementOpensUnderItsNewName(@TempDir Path dir) throws Exception {
        Properties upgrades = new Properties();
        try (InputStream in = resource(UPGRADES)) {
            upgrades.load(in);
        }
        assertTrue(upgrades.size() >= 7, "the renamed elements: " + upgrades);
        List<Class<?>> elements = new ArrayList<>(ElementClasses.testBeans());
        elements.addAll(ElementClasses.deprecatedTestBeans());
        for (String old : upgrades.stringPropertyNames()) {
            String element = "<" + old + " guiclass=\"TestBeanGUI\" testclass=\"" + old + "\" testname=\"old\" "
                    + "enabled=\"true\"/>";
            Path plan = Files.writeString(dir.resolve(old + ".jmx"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\"><hashTree>" + element
                    + "<hashTree/></hashTree></jmeterTestPlan>\n");
            Map<String, TestElement> loaded = new HashMap<>();
            collect(SaveService.loadTree(plan.toFile()), loaded);
            Class<?> now = loaded.get("old").getClass();
            assertEquals(upgrades.getProperty(old), now.getName(), old);
            assertTrue(elements.contains(now), old + " opens as an element of the plugin: " + now);
        }
    }

    /** The fields of a TestBean: the bean properties a plan sets. */
    private static Map<String, PropertyDescriptor> fields(Class<?> bean) throws Exception {
        BeanInfo info = Introspector.getBeanInfo(bean);
        Map<String, PropertyDescriptor> fields = new HashMap<>();
        for (PropertyDescriptor p : info.getPropertyDescriptors()) {
            if (p.getReadMethod() != null && p.getWriteMethod() != null && p.getPropertyType() == String.class) {
                fields.put(p.getName(), p);
            }
        }
        return fields;
    }

    private record Saved(String name, String testClass, Map<String, String> fields) {
    }

    /** The dsload elements of a plan file as written: name, class and string fields. */
    private static List<Saved> savedDsloadElements(File file) throws Exception {
        NodeList nodes = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file).getElementsByTagName("*");
        List<Saved> saved = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (e.getAttribute("testclass").startsWith("org.dsload.")) {
                Map<String, String> fields = new LinkedHashMap<>();
                NodeList props = e.getElementsByTagName("stringProp");
                for (int j = 0; j < props.getLength(); j++) {
                    Element p = (Element) props.item(j);
                    fields.put(p.getAttribute("name"), p.getTextContent());
                }
                saved.add(new Saved(e.getAttribute("testname"), e.getAttribute("testclass"), fields));
            }
        }
        return saved;
    }

    private static void collect(HashTree tree, Map<String, TestElement> found) {
        for (Object key : tree.list()) {
            if (key instanceof TestElement element) {
                found.put(element.getName(), element);
            }
            collect(tree.getTree(key), found);
        }
    }

    private static File plan(String name) {
        try {
            return Path.of(OldPlansTest.class.getResource("/org/dsload/ycsb/" + name).toURI()).toFile();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = OldPlansTest.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new UncheckedIOException(new IOException(name + " is not on the test class path"));
        }
        return in;
    }
}

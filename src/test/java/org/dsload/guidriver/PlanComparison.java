package org.dsload.guidriver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.MultiProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.apache.jmeter.testelement.property.TestElementProperty;
import org.apache.jorphan.collections.HashTree;

/** Two plans compared element by element, in tree order: class, name, and every property's value. */
public final class PlanComparison {
    private PlanComparison() {
    }

    public static void compare(HashTree expected, HashTree actual, List<String> differences) {
        List<TestElement> a = flatten(expected);
        List<TestElement> b = flatten(actual);
        if (a.size() != b.size()) {
            differences.add(a.size() + " elements became " + b.size() + ": " + names(a) + " -> " + names(b));
            return;
        }
        for (int i = 0; i < a.size(); i++) {
            TestElement x = a.get(i);
            TestElement y = b.get(i);
            String where = "'" + x.getName() + "' (" + x.getClass().getSimpleName() + ")";
            if (!x.getClass().equals(y.getClass())) {
                differences.add(where + " became a " + y.getClass().getName());
                continue;
            }
            if (!Objects.equals(x.getName(), y.getName())) {
                differences.add(where + " is now called '" + y.getName() + "'");
            }
            Map<String, String> px = properties(x);
            Map<String, String> py = properties(y);
            for (Map.Entry<String, String> e : px.entrySet()) {
                if (!py.containsKey(e.getKey())) {
                    differences.add(where + " lost " + e.getKey() + "='" + e.getValue() + "'");
                } else if (!py.get(e.getKey()).equals(e.getValue())) {
                    differences.add(where + " " + e.getKey() + " '" + e.getValue() + "' became '" + py.get(e.getKey()) + "'");
                }
            }
            for (Map.Entry<String, String> e : py.entrySet()) {
                if (!px.containsKey(e.getKey())) {
                    differences.add(where + " gained " + e.getKey() + "='" + e.getValue() + "'");
                }
            }
        }
    }

    public static int count(HashTree tree) {
        return flatten(tree).size();
    }

    private static List<String> names(List<TestElement> elements) {
        return elements.stream().map(TestElement::getName).toList();
    }

    private static List<TestElement> flatten(HashTree tree) {
        List<TestElement> elements = new ArrayList<>();
        for (Object key : tree.list()) {
            elements.add((TestElement) key);
            elements.addAll(flatten(tree.getTree(key)));
        }
        return elements;
    }

    /** Every property as path=value, nested elements and collections included. */
    public static Map<String, String> properties(TestElement element) {
        Map<String, String> values = new LinkedHashMap<>();
        for (PropertyIterator it = element.propertyIterator(); it.hasNext();) {
            add(values, "", it.next());
        }
        return values;
    }

    private static void add(Map<String, String> values, String prefix, JMeterProperty p) {
        String key = prefix + p.getName();
        if (p instanceof TestElementProperty te) {
            TestElement nested = te.getElement();
            values.put(key + "#class", nested.getClass().getName());
            for (PropertyIterator it = nested.propertyIterator(); it.hasNext();) {
                add(values, key + ".", it.next());
            }
        } else if (p instanceof MultiProperty multi) {
            int i = 0;
            for (PropertyIterator it = multi.iterator(); it.hasNext();) {
                add(values, key + "[" + i++ + "].", it.next());
            }
            values.put(key + "#size", Integer.toString(i));
        } else {
            values.put(key, p.getStringValue());
        }
    }
}

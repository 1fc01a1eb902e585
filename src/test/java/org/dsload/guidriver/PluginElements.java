package org.dsload.guidriver;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.util.JMeterUtils;

/** The elements in the dsload jar of this JMeter home, found by scanning its classes. */
final class PluginElements {
    private PluginElements() {
    }

    static Path jar() throws IOException {
        Path ext = Path.of(JMeterUtils.getJMeterHome(), "lib", "ext");
        try (Stream<Path> jars = Files.list(ext)) {
            return jars.filter(p -> p.getFileName().toString().matches("dsload-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new IOException("no dsload jar in " + ext));
        }
    }

    /** TestBeans and GUI components of the plugin, by class name; deprecated ones, hidden from the menus, left out. */
    static List<Class<?>> all() throws IOException, ClassNotFoundException {
        List<Class<?>> found = new ArrayList<>();
        try (JarFile jar = new JarFile(jar().toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                String name = e.nextElement().getName();
                if (!name.startsWith("org/dsload/") || !name.endsWith(".class") || name.contains("$")) {
                    continue;
                }
                Class<?> c = Class.forName(name.replace('/', '.').replaceFirst("\\.class$", ""), false,
                        PluginElements.class.getClassLoader());
                boolean element = TestBean.class.isAssignableFrom(c) || JMeterGUIComponent.class.isAssignableFrom(c);
                if (element && Modifier.isPublic(c.getModifiers()) && !Modifier.isAbstract(c.getModifiers())
                        && !c.isAnnotationPresent(Deprecated.class)) {
                    found.add(c);
                }
            }
        }
        found.sort(Comparator.comparing(Class::getName));
        return found;
    }
}

package org.dsload.gui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.testbeans.TestBean;
import org.dsload.cli.Main;

/**
 * Every element dsload adds to JMeter, found by scanning the plugin's compiled classes, so an
 * element added later is covered by the tests without being listed anywhere: TestBeans (their
 * GUI is generated) and GUI components of their own. Deprecated elements, kept only so that plans
 * saved with them still load, are hidden from JMeter's menus and left out ({@link #deprecatedTestBeans}).
 */
public final class ElementClasses {
    private ElementClasses() {
    }

    /** Where the plugin's classes are: target/classes in the build, or the plugin jar. */
    public static Path pluginClasses() {
        try {
            return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell where the plugin's classes are", e);
        }
    }

    public static List<Class<?>> testBeans() {
        return scan(c -> TestBean.class.isAssignableFrom(c) && !c.isAnnotationPresent(Deprecated.class));
    }

    /** TestBeans kept for plans saved with them: in no menu, and not documented as elements. */
    public static List<Class<?>> deprecatedTestBeans() {
        return scan(c -> TestBean.class.isAssignableFrom(c) && c.isAnnotationPresent(Deprecated.class));
    }

    /** GUI components that are not generated from a TestBean (listeners with a view of their own). */
    public static List<Class<?>> guiComponents() {
        return scan(c -> JMeterGUIComponent.class.isAssignableFrom(c));
    }

    public static List<Class<?>> all() {
        List<Class<?>> all = new ArrayList<>(testBeans());
        all.addAll(guiComponents());
        return all;
    }

    /** Every concrete class of the plugin that is a {@code type}, public or not. */
    public static List<Class<?>> implementing(Class<?> type) {
        return scan(c -> type.isAssignableFrom(c) && c != type, false);
    }

    private static List<Class<?>> scan(java.util.function.Predicate<Class<?>> wanted) {
        return scan(wanted, true);
    }

    private static List<Class<?>> scan(java.util.function.Predicate<Class<?>> wanted, boolean publicOnly) {
        Path location = pluginClasses();
        List<Class<?>> found = new ArrayList<>();
        // In failsafe the plugin is its jar; read it as a file system, like a folder of classes.
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location);
                Stream<Path> files = Files.walk(jar == null ? location : jar.getPath("/"))) {
            Path root = jar == null ? location : jar.getPath("/");
            for (Path file : files.filter(f -> f.toString().endsWith(".class") && f.toString().contains("org/dsload/"))
                    .toList()) {
                String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".")
                        .replaceFirst("\\.class$", "");
                if (name.contains("$")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, ElementClasses.class.getClassLoader());
                if ((!publicOnly || Modifier.isPublic(c.getModifiers())) && !Modifier.isAbstract(c.getModifiers())
                        && !c.isInterface() && wanted.test(c)) {
                    found.add(c);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        found.sort(Comparator.comparing(Class::getName));
        return found;
    }
}

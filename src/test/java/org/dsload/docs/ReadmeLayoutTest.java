package org.dsload.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;

/**
 * The README's Layout section is the map of the code: one line for every package under
 * src/main/java/org/dsload, none for a package that is gone, and every top folder or file it names
 * exists.
 */
class ReadmeLayoutTest {
    /** "  redis/             Redis Connection ...": a package, indented under src/main/java/org/dsload/. */
    private static final Pattern PACKAGE_LINE = Pattern.compile("^  ([a-z][a-z0-9]*)/\\s");
    /** "bin/                 jmeter and dsload launchers": what is named at the start of a line, then two spaces. */
    private static final Pattern TOP_LINE = Pattern.compile("^(\\S.*?)\\s{2,}\\S");

    @Test
    void everyPackageHasALineAndEveryLineAPackage() throws IOException {
        Set<String> packages;
        try (Stream<Path> dirs = Files.list(Checkout.basedir().resolve("src/main/java/org/dsload"))) {
            packages = dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertTrue(packages.contains("core") && packages.contains("redis"), "packages: " + packages);
        assertEquals(packages, describedPackages(layout()),
                "packages under src/main/java/org/dsload against the lines of README.md's Layout section");
    }

    @Test
    void everyFolderAndFileTheLayoutNamesExists() throws IOException {
        List<String> named = new ArrayList<>();
        for (String line : layout()) {
            Matcher m = TOP_LINE.matcher(line);
            if (m.find()) {
                for (String name : m.group(1).split(",\\s*")) {
                    named.add(name);
                }
            }
        }
        assertTrue(named.contains("test-plans/") && named.contains("docs/"), "named: " + named);
        List<String> missing = named.stream().filter(n -> !Files.exists(Checkout.basedir().resolve(n))).toList();
        assertTrue(missing.isEmpty(), "README.md's Layout names what the checkout lacks: " + missing);
    }

    @Test
    void aPackageWithoutALineIsNoticed() {
        List<String> layout = List.of("src/main/java/org/dsload/", "  core/              shared", "                     more of core",
                "  redis/             Redis");
        assertEquals(Set.of("core", "redis"), describedPackages(layout));
    }

    private static List<String> layout() throws IOException {
        List<String> section = Markdown.read(Checkout.basedir().resolve("README.md")).section("Layout");
        assertFalse(section.isEmpty(), "README.md has no '## Layout' section");
        return section;
    }

    private static Set<String> describedPackages(List<String> layout) {
        Set<String> described = new TreeSet<>();
        for (String line : layout) {
            Matcher m = PACKAGE_LINE.matcher(line);
            if (m.find()) {
                described.add(m.group(1));
            }
        }
        return described;
    }
}

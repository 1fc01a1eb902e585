package org.dsload.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;

/** Every property a shipped plan reads (${__P(name,...)}) is documented by name under docs/ or in README.md. */
class PlanPropertiesTest {
    private static final Pattern PROPERTY = Pattern.compile("__P\\(([A-Za-z0-9_.]+)");

    @Test
    void everyPropertyOfEveryShippedPlanIsDocumented() throws IOException {
        Path root = Checkout.basedir();
        StringBuilder docs = new StringBuilder(Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));
        try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                docs.append(Files.readString(page, StandardCharsets.UTF_8));
            }
        }
        Map<String, TreeSet<String>> missing = new TreeMap<>();
        List<Path> plans;
        try (Stream<Path> files = Files.list(root.resolve("test-plans"))) {
            plans = files.filter(p -> p.toString().endsWith(".jmx")).sorted().toList();
        }
        assertFalse(plans.isEmpty());
        for (Path plan : plans) {
            Matcher m = PROPERTY.matcher(Files.readString(plan, StandardCharsets.UTF_8));
            while (m.find()) {
                String name = m.group(1);
                if (!documented(docs, name)) {
                    missing.computeIfAbsent(plan.getFileName().toString(), k -> new TreeSet<>()).add(name);
                }
            }
        }
        assertEquals(Map.of(), missing, "plan properties no page names (as `name`, `name=` or `-Jname`)");
    }

    @Test
    void everyShippedPlanTakesInFlight() throws IOException {
        List<String> without = new java.util.ArrayList<>();
        try (Stream<Path> files = Files.list(Checkout.basedir().resolve("test-plans"))) {
            for (Path plan : files.filter(p -> p.toString().endsWith(".jmx") && !p.getFileName().toString()
                    .startsWith(".")).sorted().toList()) {
                if (!Files.readString(plan, StandardCharsets.UTF_8).contains("<stringProp name=\"inFlight\">${__P(in_flight,")) {
                    without.add(plan.getFileName().toString());
                }
            }
        }
        assertEquals(List.of(), without, "plans with no sampler whose In flight is -Jin_flight");
    }

    private static boolean documented(CharSequence docs, String name) {
        String text = docs.toString();
        return text.contains("`" + name + "`") || text.contains("`" + name + "=") || text.contains("`-J" + name);
    }
}

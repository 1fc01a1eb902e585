package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Folders;

/**
 * Installs the bundle (the plugin jar for lib/ext and its libraries for lib) into a JMeter home,
 * refusing a library that the home already has in another version: two versions of one library
 * on JMeter's class path fail in ways that are hard to trace.
 */
public final class BundleInstaller {
    private static final Pattern JAR = Pattern.compile("^(.+?)-(\\d[^/]*)\\.jar$");
    /** Lists, in lib/ext, the libraries the last install put into lib. */
    static final String RECORD = "dsload-installed-libraries.txt";
    private static final Pattern UUID_DIR = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");

    private final Path bundle;
    private final PrintStream out;

    public BundleInstaller(Path bundle, PrintStream out) {
        this.bundle = bundle;
        this.out = out;
    }

    /** The bundle this jar belongs to: the jar sits in {@code <bundle>/lib/ext/}. */
    public static Path bundleOfThisJar() {
        Path jar;
        try {
            jar = Path.of(BundleInstaller.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell where the dsload jar is: " + e.getMessage(), e);
        }
        Path ext = jar.getParent();
        if (!Files.isRegularFile(jar) || ext == null || !ext.getFileName().toString().equals("ext")) {
            throw new IllegalStateException("run install from the bundle's jar (jmeter-plugins/lib/ext/dsload-*.jar), not from " + jar);
        }
        return ext.getParent().getParent();
    }

    /** Name and version of a jar file name such as jackson-databind-2.16.1.jar. */
    record Artifact(String name, String version) {
        static Artifact of(String fileName) {
            Matcher m = JAR.matcher(fileName);
            return m.matches() ? new Artifact(m.group(1), m.group(2)) : new Artifact(fileName.replaceFirst("\\.jar$", ""), "");
        }
    }

    /**
     * @param strict also refuse a library the home already has in the same version, which means
     *               the bundle carries something JMeter ships (a build mistake)
     * @param replace remove a conflicting other version from the home instead of refusing
     */
    public void install(Path home, boolean strict, boolean replace) throws IOException {
        Path homeLib = home.resolve("lib");
        Path homeExt = homeLib.resolve("ext");
        if (!Files.isDirectory(homeExt) || !Files.isDirectory(home.resolve("bin"))) {
            throw new IOException(home + " is not a JMeter home (no bin/ and lib/ext/)");
        }
        List<Path> libraries = jars(bundle.resolve("lib"));
        List<Path> plugins = jars(bundle.resolve("lib").resolve("ext"));
        if (plugins.isEmpty()) {
            throw new IOException(bundle.resolve("lib/ext") + " has no plugin jar: build it with ./mvnw package");
        }
        // Libraries an earlier install put there are ours to replace, whatever their version.
        Path record = homeExt.resolve(RECORD);
        Set<String> ours = new HashSet<>(Files.isRegularFile(record)
                ? Files.readAllLines(record, StandardCharsets.UTF_8) : List.of());
        List<String> problems = new ArrayList<>();
        List<Path> toRemove = new ArrayList<>();
        for (String name : ours) {
            Path previous = homeLib.resolve(name);
            if (!name.isBlank() && Files.isRegularFile(previous)) {
                toRemove.add(previous);
            }
        }
        List<Path> toCopy = new ArrayList<>();
        for (Path library : libraries) {
            Artifact mine = Artifact.of(library.getFileName().toString());
            boolean present = false;
            for (Path existing : jars(homeLib)) {
                Artifact theirs = Artifact.of(existing.getFileName().toString());
                if (!theirs.name().equals(mine.name()) || toRemove.contains(existing)) {
                    continue;
                }
                if (theirs.version().equals(mine.version())) {
                    present = true;
                    if (strict) {
                        problems.add(library.getFileName() + " is already shipped by JMeter: mark it provided in pom.xml");
                    }
                } else if (replace) {
                    toRemove.add(existing);
                } else {
                    problems.add("lib/" + existing.getFileName() + " conflicts with the bundle's " + library.getFileName());
                }
            }
            if (!present) {
                toCopy.add(library);
            }
        }
        if (!problems.isEmpty()) {
            throw new IOException("not installed into " + home + ":\n  " + String.join("\n  ", problems)
                    + (strict ? "" : "\nRemove the other versions, or run install with --replace-conflicts if nothing else needs them."));
        }
        for (Path old : toRemove) {
            Files.delete(old);
        }
        List<String> installed = new ArrayList<>();
        for (Path library : toCopy) {
            Files.copy(library, homeLib.resolve(library.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            installed.add(library.getFileName().toString());
        }
        Files.write(record, installed, StandardCharsets.UTF_8);
        for (Path plugin : plugins) {
            String pluginName = Artifact.of(plugin.getFileName().toString()).name();
            for (Path existing : jars(homeExt)) {
                boolean sameArtifact = Artifact.of(existing.getFileName().toString()).name().equals(pluginName);
                if (sameArtifact && !existing.getFileName().equals(plugin.getFileName())) {
                    Files.delete(existing);
                    out.println("removed older lib/ext/" + existing.getFileName());
                }
            }
            Files.copy(plugin, homeExt.resolve(plugin.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        out.println("dsload installed into " + home + ": " + plugins.size() + " plugin jar in lib/ext, "
                + toCopy.size() + " libraries in lib (" + (libraries.size() - toCopy.size()) + " already there)");
    }

    /**
     * Installs into the JMeter home jmeter-maven-plugin just configured (its path is in
     * {@code target/config.json}), links it as {@code target/jmeter-home} and deletes homes of earlier builds.
     */
    public Path installIntoMavenBuild(Path target) throws IOException {
        Path config = target.resolve("config.json");
        if (!Files.isRegularFile(config)) {
            throw new IOException(config + " is missing: jmeter-maven-plugin's configure goal did not run");
        }
        Matcher m = Pattern.compile("\"jmeterDirectoryPath\"\\s*:\\s*\"([^\"]+)\"")
                .matcher(Files.readString(config, StandardCharsets.UTF_8));
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        if (last == null) {
            throw new IOException(config + " names no JMeter home");
        }
        Path home = Path.of(last.replace("\\\\", "\\"));
        install(home, true, false);
        Path link = target.resolve("jmeter-home");
        Files.deleteIfExists(link);
        Path relative = target.toAbsolutePath().relativize(home.toAbsolutePath());
        Files.createSymbolicLink(link, relative);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(target)) {
            for (Path dir : dirs) {
                boolean oldHome = UUID_DIR.matcher(dir.getFileName().toString()).matches()
                        && Files.isDirectory(dir.resolve("jmeter")) && !home.startsWith(dir);
                if (oldHome) {
                    Folders.deleteTree(dir);
                }
            }
        }
        out.println("JMeter home: " + link + " -> " + relative);
        return home;
    }

    private static List<Path> jars(Path dir) throws IOException {
        List<Path> jars = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return jars;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.jar")) {
            entries.forEach(jars::add);
        }
        jars.sort(Comparator.comparing(Path::toString));
        return jars;
    }
}

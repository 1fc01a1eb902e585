package org.dsload.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How to start a JMeter 5.6 process on Java 17: its launcher jar, and the JVM options (heap and G1
 * settings as JMeter's own start script sets them, and the module openings its GUI and plan
 * (de)serialisation need). One list, used by the runner and the slaves it starts, and printed for
 * the shell launchers ({@code dsload jvm-options}).
 */
public final class JMeterJvm {
    /**
     * Environment variable with extra options for every JMeter JVM dsload starts (the run's, its
     * local slaves', the dashboard's), after dsload's own so that they win.
     */
    public static final String EXTRA_OPTIONS_ENV = "DSLOAD_JMETER_JAVA_OPTS";
    /**
     * The class-data archive {@code dsload install} leaves in a JMeter home's {@code bin/}: the classes a
     * run loads (JMeter's, dsload's, their libraries'), parsed and verified once, mapped by every JMeter
     * JVM started from that home instead of being loaded from the jars again.
     */
    public static final String CLASS_DATA = "dsload-classes.jsa";
    /**
     * The launcher jar {@code dsload install} leaves beside the archive in a JMeter home's {@code bin/}:
     * no classes, a manifest whose class path names JMeter's jar and every jar of {@code lib/} and
     * {@code lib/ext/}, and JMeter's own main class. JMeter's launcher puts those jars in a class loader
     * of its own; from this jar the JVM's application class loader has them first, and the classes
     * that loader defines are the ones a class-data archive holds and maps in full: 4,766 of the 5,488
     * classes of a 1 s run of ekv-profile-get.jmx came from the archives this way, 3,678 of 5,482 from
     * JMeter's jar.
     * Its name starts as JMeter's jar's does, so that whatever finds JMeter processes by it (ps, jps,
     * a monitoring script) still finds them.
     */
    public static final String LAUNCHER = "ApacheJMeter-dsload.jar";

    /** dsload's methods, as the JVM's CompileCommand names them. */
    static final String DSLOAD_CLASSES = "org.dsload.*::*";
    /** JMeter's own methods (a thread's sample loop, its listeners'), as CompileCommand names them. */
    static final String JMETER_CLASSES = "org.apache.jmeter.*::*";
    /** The share of C2's invocation and loop thresholds that dsload's and JMeter's methods must reach to be compiled there. */
    static final String DSLOAD_COMPILE_SCALING = "0.1";

    private static final List<String> OPENS = List.of(
            "java.desktop/sun.awt", "java.desktop/sun.swing", "java.desktop/javax.swing.text.html",
            "java.desktop/java.awt", "java.desktop/java.awt.font", "java.desktop/sun.awt.X11",
            "java.desktop/sun.awt.shell", "java.base/java.lang", "java.base/java.lang.invoke",
            "java.base/java.lang.reflect", "java.base/java.util", "java.base/java.text");

    private JMeterJvm() {
    }

    /** Options other than the heap, which callers choose. */
    public static List<String> baseOptions() {
        return baseOptions(Java.optionsFrom(EXTRA_OPTIONS_ENV));
    }

    /** As {@link #baseOptions()}, with {@code extra} as the options of {@value #EXTRA_OPTIONS_ENV}. */
    static List<String> baseOptions(List<String> extra) {
        List<String> options = new ArrayList<>();
        for (String open : OPENS) {
            options.add("--add-opens=" + open + "=ALL-UNNAMED");
        }
        options.add("-XX:+UseG1GC");
        options.add("-XX:MaxGCPauseMillis=100");
        options.add("-XX:G1ReservePercent=20");
        // No speculative traps in the JIT's code. C2 compiles a branch that its profile never saw taken
        // as a trap back to the interpreter; a plan's measured thread group starts new threads after
        // its warm-up group (new connections, a new window, first samples) and takes such branches:
        // the code falls back to the interpreter and recompiles while the arrivals come. At 66,000
        // Redis GETs/s that made 4 to 8 % of the measured arrivals late, with these 0.4 % (benchmarks.md).
        options.add("-XX:PerMethodTrapLimit=0");
        options.add("-XX:PerBytecodeTrapLimit=0");
        // No speculation on types either. C2 also compiles a reference its profile never saw null (a
        // thread's first buffer, a label's first series) as a trap; the trap limits above do not cover
        // these. A measured thread group's new threads and new label hit them at once, and the callers
        // they were inlined into (the results writer's, the live figures', the sampler's) were thrown away
        // and compiled again in the measured window's first second. At 5,000 InfluxDB writes/s the p99 of
        // the measured window's first 10 s had a median of 12.0 ms with them, 8.6 ms without (benchmarks.md).
        options.add("-XX:-UseTypeSpeculation");
        // dsload's and JMeter's code reach C2 ten times sooner. With requests in flight a thread's requests
        // share a row per millisecond, so the per-row path (CsvRow.append, the writer's and the live figures';
        // JMeter's processSampler and executeSamplePackage, its summariser's) runs about 1,000 times a second:
        // C2's own thresholds took it there 10-12 s in, just after a 10 s warm-up, and its compiles of 100-200 ms
        // on a core the server shares made arrivals late. At 107,000 Redis GETs/s 8 of 11 runs with dsload's
        // scaled kept late arrivals within 0.1 %, 2 of 8 without. JMeter's sample loop, run by one thread from
        // the warm-up on (the warm-up is the measured thread group's first seconds), went to C2 12 s in without
        // its scaling (21,389 and 31,570 late in 2 of 4 runs), in the warm-up with it (at most 5,299 late in 6
        // runs; benchmarks.md). "quiet" keeps the JVM from printing the commands at its start.
        // A JVM told to stop short of C2 (-XX:TieredStopAtLevel=1 in the extra options, as the tests that judge
        // what a run does start JMeter) would only compile these methods at C1 sooner: 0.2 s more CPU in a 1 s run.
        if (reachesC2(extra)) {
            options.add("-XX:CompileCommand=quiet");
            for (String classes : List.of(DSLOAD_CLASSES, JMETER_CLASSES)) {
                options.add("-XX:CompileCommand=option," + classes + ",double,CompileThresholdScaling," + DSLOAD_COMPILE_SCALING);
            }
        }
        options.add("-Djava.security.egd=file:/dev/urandom");
        // String.format in any locale but en_US builds that locale's DecimalFormatSymbols at each call,
        // and HttpClient 5.1 formats an id that way for every request (InfluxDB, KairosDB): 14 % of the
        // writer threads' Java time and 15 % of their allocation at 5,000 writes/s. A C or POSIX
        // environment gives Java plain "en", which formats exactly as en_US: the country costs nothing.
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        if (format.getLanguage().equals("en") && format.getCountry().isEmpty()) {
            options.add("-Duser.country=US");
        }
        // One logging context for the whole process: with log4j's default selector every logger
        // looked up walks the caller's stack, and Curator looks one up for each getData and create.
        options.add("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.selector.BasicContextSelector");
        options.addAll(extra);
        return options;
    }

    /** Whether a JVM with these options compiles with C2: none of them is -XX:TieredStopAtLevel below 4 (the last one given wins). */
    static boolean reachesC2(List<String> options) {
        String prefix = "-XX:TieredStopAtLevel=";
        return options.stream().filter(o -> o.startsWith(prefix)).reduce((a, b) -> b)
                .map(o -> o.equals(prefix + "4")).orElse(true);
    }

    /**
     * The options that map the home's class-data archive, or none when it has none. An archive the
     * JVM cannot use (made by another JDK, or for jars since replaced) is passed over in silence: the
     * JVM then loads every class from the jars, as without an archive. Before {@link #baseOptions()},
     * whose options from {@value #EXTRA_OPTIONS_ENV} come last: {@code -Xshare:off} there turns it off.
     */
    public static List<String> classData(Path home) {
        Path archive = home.resolve("bin").resolve(CLASS_DATA);
        if (!Files.isRegularFile(archive)) {
            return List.of();
        }
        return List.of("-XX:SharedArchiveFile=" + archive.toAbsolutePath(), "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    }

    public static List<String> heap(String max) {
        return List.of("-Xms" + max, "-Xmx" + max, "-XX:MaxMetaspaceSize=256m");
    }

    /**
     * The jar a JMeter JVM starts from: the home's {@value #LAUNCHER} where {@code dsload install} made
     * one, by its real path (the archive holds the class path by name, and a home reached through a
     * link, as target/jmeter-home is, would name other paths), otherwise JMeter's own ApacheJMeter jar.
     */
    public static Path launcherJar(Path home) throws IOException {
        Path launcher = home.resolve("bin").resolve(LAUNCHER);
        return Files.isRegularFile(launcher) ? launcher.toRealPath() : jmeterJar(home);
    }

    /** The ApacheJMeter jar of a JMeter home. */
    public static Path jmeterJar(Path home) throws IOException {
        Path bin = home.resolve("bin");
        if (Files.isDirectory(bin)) {
            try (var files = Files.list(bin)) {
                var jar = files.filter(p -> p.getFileName().toString().matches("ApacheJMeter(-[\\d.]+)?\\.jar")).findFirst();
                if (jar.isPresent()) {
                    return jar.get();
                }
            }
        }
        throw new IOException(home + " is not a JMeter home (no bin/ApacheJMeter*.jar): build one with ./mvnw package "
                + "or give --jmeter-home");
    }
}

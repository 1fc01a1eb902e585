package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.recording.RecordMode;
import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The command line as a user meets it: help, mistakes, typed values and exit codes. */
class CommandLineTest {
    @TempDir
    Path dir;

    private String out;
    private String err;

    private int dsload(String... args) {
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
                new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        out = outBytes.toString(StandardCharsets.UTF_8);
        err = errBytes.toString(StandardCharsets.UTF_8);
        return code;
    }

    /** Every command, sub-actions included ("slaves start"), as its words on the command line. */
    static List<List<String>> commands() {
        List<List<String>> all = new ArrayList<>();
        collect(Main.commandLine(System.out, System.err), new ArrayList<>(), all);
        return all;
    }

    private static void collect(CommandLine command, List<String> words, List<List<String>> all) {
        command.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().userObject() instanceof CommandLine.HelpCommand) {
                return;
            }
            List<String> path = new ArrayList<>(words);
            path.add(name);
            all.add(path);
            collect(sub, path, all);
        });
    }

    @Test
    void helpListsEveryCommandAndTheExitCodes() {
        assertEquals(0, dsload("--help"));
        for (String command : List.of("run", "serve", "scenarios", "summary", "check", "slaves", "revert", "proxy",
                "install", "jvm-options")) {
            assertTrue(out.contains("\n  " + command + " "), command + " missing from:\n" + out);
        }
        assertTrue(out.contains("Exit codes:"), out);
        assertTrue(out.contains("130   interrupted"), out);
        assertEquals("", err);
    }

    @Test
    void everyCommandAnswersHelpWithItsOptionsAndExitCodes() {
        for (List<String> command : commands()) {
            List<String> args = new ArrayList<>(command);
            args.add("--help");
            assertEquals(0, dsload(args.toArray(String[]::new)), String.join(" ", args) + ": " + err);
            assertTrue(out.startsWith("Usage: dsload " + String.join(" ", command)), out);
            boolean hasActions = command.equals(List.of("slaves"));
            assertTrue(hasActions || out.contains("Exit codes:\n") && out.contains("\n    2   usage error"),
                    String.join(" ", command) + ":\n" + out);
        }
        assertEquals(0, dsload("help", "run"));
        assertTrue(out.contains("-Jname=value"), out);
        assertTrue(out.contains("--slaves=<n>"), out);
    }

    @Test
    void withoutACommandTheUsageIsShownAsAUsageError() {
        assertEquals(ExitCodes.USAGE, dsload());
        assertTrue(out.contains("Commands:"), out);
    }

    @Test
    void versionNamesTheProduct() {
        assertEquals(0, dsload("--version"));
        assertTrue(out.startsWith("dsload "), out);
    }

    @Test
    void badLiveOptionsAreUsageErrorsBeforeAnythingRuns() {
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--metrics-port", "70000"));
        assertTrue(err.contains("dsload run: --metrics-port must be a port number from 1 to 65535 (0: none), got 70000"),
                err);
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--progress", "fancy"));
        assertTrue(err.contains("dsload run: --progress must be tty or plain, got 'fancy'"), err);
        assertEquals(ExitCodes.USAGE, dsload("find-max", "plan.jmx", "--max-p99", "5ms", "--quiet", "--progress", "tty"));
        assertTrue(err.contains("--progress and --quiet exclude each other"), err);
        assertEquals(ExitCodes.USAGE, dsload("scenarios", "ekv", "--metrics-port", "-3"));
        assertTrue(err.contains("dsload scenarios: --metrics-port must be a port number"), err);
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--metrics-linger", "-1"));
        assertTrue(err.contains("--metrics-linger must be 0 or more seconds, got -1"), err);
    }

    @Test
    void aMisspeltOptionGetsASuggestionNotTheWholeUsage() {
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--slavs", "2"));
        assertTrue(err.contains("dsload run: Unknown option: '--slavs'. Possible solutions: --slaves"), err);
        assertTrue(err.contains("See 'dsload run --help'"), err);
        assertFalse(err.contains("Usage:"), err);
        assertEquals("", out);

        assertEquals(ExitCodes.USAGE, dsload("check", "x.jtl", "--max-eror-rate", "1%"));
        assertTrue(err.contains("Unknown option: '--max-eror-rate'. Possible solutions: "), err);
        assertTrue(err.lines().findFirst().orElseThrow().contains("--max-error-rate"), err);

        assertEquals(ExitCodes.USAGE, dsload("slaves", "start", "--adress", "10.0.0.5"));
        assertTrue(err.contains("dsload slaves start: Unknown option: '--adress'. Possible solutions: --address"), err);
    }

    @Test
    void aBareCountPointsToTheOptionThatTakesIt() {
        assertEquals(ExitCodes.USAGE, dsload("slaves", "start", "2"));
        assertTrue(err.startsWith("dsload slaves start: unexpected argument '2': a number is given with -n, as in "
                + "'dsload slaves start -n 2'"), err);
        assertEquals("", out);
    }

    @Test
    void serveRefusesATargetItDoesNotKnowOrAnOptionItsTargetDoesNotTake() {
        assertEquals(ExitCodes.USAGE, dsload("serve", "mongodb"));
        assertTrue(err.startsWith("dsload serve: unknown target 'mongodb'; known: redis [--logins], redis-cluster, "
                + "cassandra [--nodes 1|3] [--logins], zookeeper [--nodes 1|3|5], kairosdb [--datastore h2|cassandra] "
                + "[--logins], influxdb"), err);
        assertEquals(ExitCodes.USAGE, dsload("serve", "redis", "--nodes", "3"));
        assertTrue(err.startsWith("dsload serve: redis takes --logins, not --nodes"), err);
        assertEquals(ExitCodes.USAGE, dsload("serve", "cassandra", "--nodes", "3", "--logins"));
        assertTrue(err.startsWith("dsload serve: cassandra --logins starts one node: leave out --nodes 3"), err);
        assertEquals(ExitCodes.USAGE, dsload("serve", "cassandra", "--nodes", "2"));
        assertTrue(err.startsWith("dsload serve: cassandra --nodes takes 1 or 3, not '2'"), err);
        assertEquals(ExitCodes.USAGE, dsload("serve", "--nodes", "3", "zookeeper"));
        assertTrue(err.startsWith("dsload serve: --nodes belongs to a target, after its name"), err);
        assertEquals(ExitCodes.USAGE, dsload("serve", "redis", "zookeeper", "redis"));
        assertTrue(err.startsWith("dsload serve: redis is named twice"), err);
        assertEquals(ExitCodes.USAGE, dsload("serve"));
        assertEquals("", out);
    }

    @Test
    void scenariosRefuseUnknownNamesAndValuesButTakeEmptyOnesAsDefaults() {
        // empty values are what ./mvnw verify -Pscenarios passes for properties left unset
        assertEquals(ExitCodes.USAGE, dsload("scenarios", "--slaves=", "--record=", "--props=", "ekv,nosuch", ""));
        assertTrue(err.startsWith("dsload scenarios: unknown scenario nosuch; known: ekv, redis-ycsb, cassandra, zk-latencies,"), err);
        assertEquals(ExitCodes.USAGE, dsload("scenarios", "--record", "all"));
        assertTrue(err.startsWith("dsload scenarios: Invalid value for option '--record': 'all' is not rows or histograms"),
                err);
        assertEquals(ExitCodes.USAGE, dsload("scenarios", "--props", "duration=60 threads"));
        assertTrue(err.contains("'threads' is not name=value"), err);
        assertEquals(ExitCodes.USAGE, dsload("scenarios", "--slaves", "-1"));
        assertEquals("", out);
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        assertEquals(ExitCodes.USAGE, dsload("sumary", "x.jtl"));
        assertTrue(err.startsWith("dsload: Unknown command: 'sumary'. Possible solutions: summary"), err);
        assertEquals(ExitCodes.USAGE, dsload("slaves", "strat"));
        assertTrue(err.startsWith("dsload slaves: Unknown command: 'strat'. Possible solutions: "), err);
        assertTrue(err.lines().findFirst().orElseThrow().contains("start"), err);
    }

    @Test
    void aBadValueNamesTheOptionWhatWasGivenAndWhatIsExpected() {
        assertUsageError("Invalid value for option '--timeout': '10m' is not a whole number of seconds above 0",
                "run", "plan.jmx", "--timeout", "10m");
        assertUsageError("Invalid value for option '--slaves': 'two' is not a whole number, 0 or more",
                "run", "plan.jmx", "--slaves", "two");
        assertUsageError("Invalid value for option '-J' (name=value): 'threads' is not name=value",
                "run", "plan.jmx", "-Jthreads");
        assertUsageError("Invalid value for option '--record': 'hist' is not rows or histograms",
                "run", "plan.jmx", "--record", "hist");
        assertUsageError("Invalid value for option '--late-ms': '-1' is not a number of milliseconds of at least 0",
                "summary", "x.jtl", "--late-ms", "-1");
        assertUsageError("Invalid value for option '--max-error-rate': '150%' is above 100%",
                "check", "x.jtl", "--max-error-rate", "150%");
        assertUsageError("Invalid value for option '--max-p99.9': '2min' is not", "check", "x.jtl", "--max-p99.9", "2min");
        assertUsageError("Invalid value for option '-n': '0' is not a whole number above 0", "slaves", "start", "-n", "0");
        assertUsageError("Invalid value for option '--port': '70000' is not a port number from 1 to 65535",
                "slaves", "start", "--address", "10.0.0.5", "--port", "70000");
        assertUsageError("Invalid value for option '--control': '8474' is not host:port", "proxy", "--route",
                "redis=127.0.0.1:16379>127.0.0.1:6379", "--control", "8474");
        assertUsageError("a route is name=listen_host:port>server_host:port, got 'redis'", "proxy", "--route", "redis");
    }

    private void assertUsageError(String message, String... args) {
        assertEquals(ExitCodes.USAGE, dsload(args), String.join(" ", args));
        assertTrue(err.contains(message), "expected '" + message + "' in: " + err);
        assertEquals("", out, "nothing runs on a refused command line");
    }

    @Test
    void missingArgumentsAreUsageErrors() {
        assertUsageError("Missing required parameter: '<plan.jmx>'", "run");
        assertUsageError("Missing required parameter: '<run>'", "summary");
        assertUsageError("slaves needs start, stop, status or keystore", "slaves");
        assertUsageError("install needs a JMeter home", "install");
        assertUsageError("Missing required option: '--route", "proxy");
        assertUsageError(dir.resolve("nowhere") + " is not a folder", "revert", dir.resolve("nowhere").toString());
    }

    @Test
    void findMaxRefusesAPlanWithoutARateAndMissingOrBadLimitsBeforeItRuns() throws Exception {
        Path plan = Files.writeString(dir.resolve("closed.jmx"), "<x>${__P(threads,10)} ${__P(duration,60)}"
                + " ${__P(hosts,127.0.0.1:6379)}</x>");
        assertUsageError(plan + " is not driven by a rate property (rate, queries_per_min, target); it reads: threads, duration,"
                + " hosts. Name its rate property with --rate-property=<name>.", "find-max", plan.toString(), "--max-p99=5ms");
        assertUsageError(plan + " reads no property 'qps'; it reads: threads, duration, hosts", "find-max", plan.toString(),
                "--max-p99=5ms", "--rate-property=qps");
        assertUsageError("find-max needs at least one limit", "find-max", plan.toString(), "--rate-property=threads");
        assertUsageError("'5' is not a duration with its unit", "find-max", plan.toString(), "--max-p99=5");
        assertUsageError("'x' is not a percentage", "find-max", plan.toString(), "--max-late=x");
        assertUsageError("--max-gauge: 'outstanding' is not <gauge>=<number>", "find-max", plan.toString(),
                "--max-gauge=outstanding");
        assertUsageError("'-3' is not a number above 0", "find-max", plan.toString(), "--max-p99=5ms", "--start=-3");
        // the YCSB plans' target is their rate, unpaced (0) unless set: the search needs a first rate
        assertUsageError("the plan's default of 'target' is not a rate above 0 ('0'): give --start=<rate>", "find-max",
                Checkout.basedir().resolve("test-plans/redis-ycsb.jmx").toString(), "--max-p99=5ms");
    }

    @Test
    void aStopConditionThatDoesNotParseRefusesTheRunBeforeItStarts() {
        assertUsageError("--stop-when: 'p99>50': a latency limit needs a duration", "run", "plan.jmx", "--stop-when", "p99>50");
        assertUsageError("--stop-when: 'latency>5ms' is not a stop condition", "run", "plan.jmx", "--stop-when", "latency>5ms");
        assertUsageError("--stop-when: 'errors>5': an error limit is a percentage", "run", "plan.jmx",
                "-Jdsload.stop_when=p99>50ms;errors>5");
    }

    @Test
    void runPassesJMeterPropertiesAndSlavesThrough() {
        CommandLine cli = Main.commandLine(System.out, System.err);
        ParseResult run = cli.parseArgs("run", "plan.jmx", "-Jthreads=50", "-Jurl=http://h/?a=b", "-Jempty=",
                "-G", "server.rmi.ssl.disable=true", "-R", "10.0.0.5:1099,10.0.0.6", "-R10.0.0.7").subcommand();
        List<PropertyOptions.Property> props = run.matchedOptionValue("-J", List.of());
        assertEquals(List.of(new PropertyOptions.Property("threads", "50"),
                new PropertyOptions.Property("url", "http://h/?a=b"), new PropertyOptions.Property("empty", "")), props);
        assertEquals(List.of(new PropertyOptions.Property("server.rmi.ssl.disable", "true")),
                run.matchedOptionValue("-G", List.of()));
        assertEquals(List.of("10.0.0.5:1099", "10.0.0.6", "10.0.0.7"), run.matchedOptionValue("-R", List.of()));
        assertEquals(Path.of("plan.jmx"), run.matchedPositionalValue(0, null));
        assertEquals(RecordMode.HISTOGRAMS,
                cli.parseArgs("run", "plan.jmx", "--record", "histograms").subcommand().matchedOptionValue("--record", null));
    }

    @Test
    void exitCodes() throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("run"));
        assertEquals(ExitCodes.OK, dsload("revert", runDir.toString()));
        assertTrue(out.contains("no applied fault recorded in " + runDir), out);

        assertEquals(ExitCodes.FAILED, dsload("summary", dir.resolve("none.jtl").toString()));
        assertTrue(err.contains("dsload: no results file at"), err);
        assertEquals(ExitCodes.FAILED, dsload("summary", runDir.toString()));
        assertTrue(err.contains("dsload: no results in " + runDir), err);

        assertEquals(ExitCodes.USAGE, dsload("summary", "--out"));

        CommandLine cli = Main.commandLine(System.out, new PrintStream(new ByteArrayOutputStream(), true));
        assertEquals(ExitCodes.INTERRUPTED, new CommandFailures().handleExecutionException(new InterruptedException(), cli, null));
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    }

    @Test
    void aRunFolderIsSummarisedAsItsResultsFile() throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("20261129-080000-get"));
        Files.writeString(runDir.resolve("run.properties"), "plan=/plans/get.jmx\n");
        Files.writeString(runDir.resolve("get.jtl"), "timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
                + "dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
                + "SampleCount,ErrorCount,Hostname\n"
                + "1000,10,GET,OK,OK,t 1-1,text,true,,100,20,1,1,,10,0,0,1,0,host\n"
                + "2000,30,GET,OK,OK,t 1-1,text,true,,100,20,1,1,,30,0,0,1,0,host\n");
        assertEquals(ExitCodes.OK, dsload("summary", runDir.resolve("get.jtl").toString()));
        String ofFile = out;
        assertTrue(ofFile.contains("== GET =="), ofFile);
        assertEquals(ExitCodes.OK, dsload("summary", runDir.toString()));
        assertEquals(ofFile, out, "the folder's summary is its results file's");
    }

    @Test
    void anUnexpectedFailureKeepsItsStackTraceAfterTheMessage() throws Exception {
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        CommandLine cli = Main.commandLine(System.out, new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        int code = new CommandFailures().handleExecutionException(new NullPointerException("x was null"), cli, null);
        String text = errBytes.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCodes.FAILED, code);
        assertTrue(text.startsWith("dsload: x was null"), text);
        assertTrue(text.contains("at org.dsload.cli.CommandLineTest"), text);
    }

    @Test
    void jvmOptionsPrintsOnePerLine() {
        assertEquals(0, dsload("jvm-options"));
        assertTrue(out.lines().allMatch(l -> l.startsWith("-")), out);
    }

    @Test
    void zkCleanupRefusesARootThatIsNoPathAndSaysWhenNoServerAnswers() throws Exception {
        assertEquals(ExitCodes.USAGE, dsload("zk-cleanup", "127.0.0.1:2181", "dsload-test"));
        assertTrue(err.contains("the root must be a znode path below /, got 'dsload-test'"), err);
        assertEquals(ExitCodes.USAGE, dsload("zk-cleanup", "127.0.0.1:2181"));
        assertEquals(ExitCodes.USAGE, dsload("zk-cleanup", "127.0.0.1:2181", "/dsload-test", "--user", "bench",
                "--password", "env:DSLOAD_NO_SUCH_VARIABLE"));
        assertTrue(err.contains("dsload zk-cleanup: option '--password' names environment variable "
                + "DSLOAD_NO_SUCH_VARIABLE, which is not set"), err);

        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        assertEquals(ExitCodes.FAILED, dsload("zk-cleanup", "127.0.0.1:" + closed, "/dsload-test"));
        assertTrue(err.contains("dsload zk-cleanup: no server of 127.0.0.1:" + closed + " answered within"), err);
    }

    @Test
    void aLeastNumberOfSlavesTheRunCannotHaveIsAUsageError() {
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--slaves", "2", "--min-slaves", "0"));
        assertTrue(err.contains("--min-slaves"), err);
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--slaves", "2", "--min-slaves", "3"));
        assertTrue(err.contains("dsload run: --min-slaves 3 asks for more slaves than the run has (2)"), err);
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "--min-slaves", "1"));
        assertTrue(err.contains("dsload run: --min-slaves 1 needs slaves: --slaves <n>, -R host:port,... or --hosts-file"),
                err);
        assertEquals(ExitCodes.USAGE, dsload("run", "plan.jmx", "-R", "10.0.0.5:1099", "-Jmin_slaves=two"));
        assertTrue(err.contains("dsload run: min_slaves=two: the least number of slaves must be a whole number above 0"),
                err);
        assertEquals(ExitCodes.USAGE, dsload("find-max", "plan.jmx", "--max-p99", "5ms", "-R", "10.0.0.5", "--min-slaves",
                "2"));
        assertTrue(err.contains("dsload find-max: --min-slaves 2 asks for more slaves than the run has (1)"), err);
    }
}

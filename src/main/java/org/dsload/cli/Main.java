package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.dsload.remote.HostsFile;
import org.dsload.report.LabelStats;
import org.dsload.report.RunCharts;
import org.dsload.report.RunReport;
import org.dsload.report.Summary;
import org.dsload.report.SummaryJson;
import org.dsload.run.JMeterJvm;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.scenarios.ScenariosCommand;
import org.dsload.serve.ServeCommand;

/**
 * The dsload command line: {@code java -jar dsload-<version>.jar <command> ...}.
 */
public final class Main {
    static final String USAGE = String.join("\n",
            "usage: java -jar dsload.jar <command> [options]",
            "",
            "  summary <results.jtl> [--out <dir>] [--late-ms <ms>]",
            "      Print the summary of a JMeter CSV results file; with --out also write",
            "      summary.txt, summary.json and the PNG charts into <dir>. --late-ms: an",
            "      arrival that starts later than this after its intended start is late (10).",
            "  check <results.jtl> [--max-p99 <duration>] [--max-p95 <duration>] [--max-p<N> ...]",
            "      [--max-error-rate <percent>%] [--label <label> ...]",
            "      Judge a results file against limits on exact latency percentiles (500us, 20ms, 1.5s)",
            "      and the share of failed requests, for all labels together or each --label; exit code 1",
            "      and the limits not kept when one is exceeded (or there are no requests), 0 otherwise.",
            "  run <plan.jmx> [--jmeter-home <dir>] [--results <dir>] [--run-id <id>]",
            "      [--timeout <seconds>] [--no-dashboard] [-R host:port,...] [-Jname=value ...] [-Gname=value ...]",
            "      [--slaves <n>] [--hosts-file <file>] [--allow-missing-slaves] [--rmi-hostname <address>]",
            "      [--remote-dir <dir>]",
            "      Run a plan headless into <results>/<run-id>/ (JTL, log, HTML dashboard, summary).",
            "      --slaves n starts n jmeter-server slaves on 127.0.0.2... for the run; -R and --hosts-file",
            "      name running ones. Distributed runs send every -J property to the slaves too.",
            "  slaves start [-n <n>] [--address <own address> [--port 1099] [--engine-port 4000]]",
            "      [--jmeter-home <dir>] [--logs <dir>] [--heap 512m] [--no-ssl] [--remote-dir <dir>]",
            "  slaves stop|status|keystore [--remote-dir <dir>]",
            "      jmeter-server slaves that outlive the command (PIDs in <remote-dir>/slaves.pid, their",
            "      addresses in <remote-dir>/local.hosts), and the RMI keystore (remote-servers/ by default).",
            "  install <jmeter-home> [--replace-conflicts]",
            "      Install this bundle (lib/ext and lib) into a JMeter 5.6 home.",
            "  install --maven-target <target-dir>",
            "      Used by the build: install into the home jmeter-maven-plugin configured.",
            "  revert [<run folder>]",
            "      Undo the faults a fault schedule left applied (its process died before it could):",
            "      those recorded in <run folder>/applied-faults, or else in ~/.dsload/applied-faults.",
            "  proxy --route name=listen_host:port>server_host:port ... [--control 127.0.0.1:8474]",
            "      Run a fault proxy (delay, bandwidth, freeze, reset, loss per route) until stopped.",
            "  serve <target> [options] [<target> [options] ...] [--data <dir>]",
            "      Start real servers on free loopback ports until Ctrl-C or SIGTERM, and print for each",
            "      the -J properties that point the shipped plans at it. Targets: redis, redis-cluster,",
            "      cassandra [--nodes 1|3], zookeeper [--nodes 1|3|5], kairosdb [--datastore h2|cassandra],",
            "      influxdb. --data keeps their data (and ports) across runs; by default a fresh folder.",
            "  scenarios [<name>,...] [--slaves <n>] [--props \"name=value ...\"] [--record rows|histograms]",
            "      [--results <dir>]",
            "      The main job: every scenario plan against its embedded server, on n local slaves (2).",
            "  jvm-options",
            "      Print the JVM options (one per line) a JMeter 5.6 process needs on Java 17.");

    private Main() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } catch (UsageException e) {
            System.err.println("dsload: " + e.getMessage());
            System.err.println(USAGE);
            code = 2;
        } catch (IOException | IllegalStateException e) {
            System.err.println("dsload: " + e.getMessage());
            code = 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = 130;
        }
        System.exit(code);
    }

    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        switch (args[0]) {
            case "summary":
                return summary(rest, out);
            case "check":
                return CheckCommand.run(rest, out);
            case "run":
                return runPlan(rest, out);
            case "install":
                return install(rest, out);
            case "slaves":
                return SlavesCommand.run(rest, out);
            case "revert":
                return FaultCommands.revert(rest, out);
            case "proxy":
                return FaultCommands.proxy(rest, out);
            case "serve":
                try {
                    return ServeCommand.run(rest, out);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            case "scenarios":
                try {
                    return ScenariosCommand.run(rest, out);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            case "jvm-options":
                JMeterJvm.baseOptions().forEach(out::println);
                return 0;
            default:
                throw new UsageException("unknown command '" + args[0] + "'");
        }
    }

    private static int summary(List<String> args, PrintStream out) throws IOException {
        String jtl = null;
        Path outDir = null;
        long lateMicros = LabelStats.DEFAULT_LATE_MICROS;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--out")) {
                outDir = Path.of(value(args, ++i, a));
            } else if (a.equals("--late-ms")) {
                lateMicros = Math.round(decimal(value(args, ++i, a), a) * 1000);
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else if (jtl == null) {
                jtl = a;
            } else {
                throw new UsageException("summary takes one results file");
            }
        }
        if (jtl == null) {
            throw new UsageException("summary needs a results file");
        }
        Path file = Path.of(jtl);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no results file at " + file);
        }
        Summary summary = Summary.of(file, lateMicros);
        Path runDir = file.toAbsolutePath().getParent();
        String text = RunReport.render(runDir, summary);
        out.print(text);
        if (outDir != null) {
            Files.createDirectories(outDir);
            Files.writeString(outDir.resolve("summary.txt"), text, StandardCharsets.UTF_8);
            Files.writeString(outDir.resolve("summary.json"), SummaryJson.render(summary), StandardCharsets.UTF_8);
            for (Path chart : RunCharts.write(file, runDir, outDir)) {
                out.println("dsload: chart " + chart);
            }
        }
        return 0;
    }

    private static double decimal(String text, String option) {
        try {
            double value = Double.parseDouble(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a number of at least 0, got '" + text + "'");
    }

    private static int runPlan(List<String> args, PrintStream out) throws IOException, InterruptedException {
        Path home = null;
        Path plan = null;
        Path results = Path.of("results");
        String runId = null;
        Duration timeout = null;
        boolean dashboard = true;
        List<String[]> props = new ArrayList<>();
        List<String[]> globals = new ArrayList<>();
        List<String> remote = new ArrayList<>();
        int localSlaves = 0;
        boolean allowMissing = false;
        String rmiHostname = null;
        Path remoteDir = defaultRemoteDir();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--slaves")) {
                String n = value(args, ++i, a);
                localSlaves = n.trim().equals("0") ? 0 : positive(n, a);
            } else if (a.equals("--hosts-file")) {
                HostsFile.read(Path.of(value(args, ++i, a))).forEach(h -> remote.add(h.toString()));
            } else if (a.equals("--allow-missing-slaves")) {
                allowMissing = true;
            } else if (a.equals("--rmi-hostname")) {
                rmiHostname = value(args, ++i, a);
            } else if (a.equals("--remote-dir")) {
                remoteDir = Path.of(value(args, ++i, a));
            } else if (a.equals("--jmeter-home")) {
                home = Path.of(value(args, ++i, a));
            } else if (a.equals("--results")) {
                results = Path.of(value(args, ++i, a));
            } else if (a.equals("--run-id")) {
                runId = value(args, ++i, a);
            } else if (a.equals("--timeout")) {
                timeout = Duration.ofSeconds(seconds(value(args, ++i, a)));
            } else if (a.equals("--no-dashboard")) {
                dashboard = false;
            } else if (a.equals("-R")) {
                remote.addAll(Arrays.asList(value(args, ++i, a).split(",")));
            } else if (a.startsWith("-J") || a.startsWith("-G")) {
                String[] kv = property(a);
                (a.startsWith("-J") ? props : globals).add(kv);
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else if (plan == null) {
                plan = Path.of(a);
            } else {
                throw new UsageException("run takes one plan");
            }
        }
        if (plan == null) {
            throw new UsageException("run needs a plan (.jmx)");
        }
        PlanRun run = new PlanRun(home != null ? home : defaultHome(), plan).resultsRoot(results).runId(runId)
                .timeout(timeout).dashboard(dashboard).remoteHosts(remote).localSlaves(localSlaves)
                .allowMissingSlaves(allowMissing).rmiHostname(rmiHostname).remoteDir(remoteDir);
        props.forEach(kv -> run.property(kv[0], kv[1]));
        globals.forEach(kv -> run.globalProperty(kv[0], kv[1]));
        PlanRunner.Outcome outcome = new PlanRunner(out).run(run);
        if (outcome.summary() != null) {
            out.println();
            out.print(Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8));
        }
        out.println();
        out.println("dsload: results in " + outcome.dir());
        if (!outcome.ok()) {
            out.println("dsload: " + outcome.problem());
            return 1;
        }
        return 0;
    }

    /** Where the RMI keystore and the slaves' PID file live: remote-servers/ (bin/dsload names the project's). */
    static Path defaultRemoteDir() {
        String env = System.getenv("DSLOAD_REMOTE_DIR");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of("remote-servers");
    }

    static Path defaultHome() {
        String env = System.getenv("JMETER_HOME");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        try {
            // When installed, this jar sits in <home>/lib/ext.
            Path bundle = BundleInstaller.bundleOfThisJar();
            if (Files.isDirectory(bundle.resolve("bin"))) {
                return bundle;
            }
        } catch (IllegalStateException notInABundle) {
            // fall through to the build's home
        }
        return Path.of("target", "jmeter-home");
    }

    private static int install(List<String> args, PrintStream out) throws IOException {
        boolean replace = false;
        Path home = null;
        Path mavenTarget = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--replace-conflicts")) {
                replace = true;
            } else if (a.equals("--maven-target")) {
                mavenTarget = Path.of(value(args, ++i, a));
            } else if (a.startsWith("-")) {
                throw new UsageException("unknown option " + a);
            } else {
                home = Path.of(a);
            }
        }
        BundleInstaller installer = new BundleInstaller(BundleInstaller.bundleOfThisJar(), out);
        if (mavenTarget != null) {
            installer.installIntoMavenBuild(mavenTarget);
        } else if (home != null) {
            installer.install(home, false, replace);
        } else {
            throw new UsageException("install needs a JMeter home");
        }
        return 0;
    }

    static int positive(String text, String option) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " takes a whole number above 0, got '" + text + "'");
    }

    static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static long seconds(String text) {
        try {
            long s = Long.parseLong(text);
            if (s > 0) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--timeout takes a number of seconds, got '" + text + "'");
    }

    private static String[] property(String arg) {
        String body = arg.substring(2);
        int eq = body.indexOf('=');
        if (eq <= 0) {
            throw new UsageException(arg + " must be written " + arg.substring(0, 2) + "name=value");
        }
        return new String[] {body.substring(0, eq), body.substring(eq + 1)};
    }
}

package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.dsload.remote.HostsFile;
import org.dsload.remote.LocalSlaves;
import org.dsload.remote.RmiKeystore;
import org.dsload.remote.RmiSecurity;
import org.dsload.remote.SlaveAddress;
import org.dsload.remote.SlaveProcess;
import org.dsload.remote.SlavesPidFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dsload slaves start}: n slaves on 127.0.0.2 ..., or one on an address of this machine. */
@Command(name = "start", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Start jmeter-server slaves that keep running after the command: n of them on 127.0.0.2,"
                + " 127.0.0.3 ..., or one on --address (for other machines to use). Prints how to run on them."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:the slaves run and answer", "  1:slaves of an earlier start still run, or a slave"
                + " did not start", ExitCodes.USAGE_LINE})
final class SlavesStartCommand extends Subcommand {
    @Option(names = "-n", paramLabel = "<n>", converter = OptionValues.Count.class,
            description = "How many slaves on this machine (default: ${DEFAULT-VALUE}).")
    private int count = 2;

    @Option(names = "--address", paramLabel = "<address>",
            description = "Start one slave on this address of this machine instead (the one other machines reach).")
    private String address;

    @Option(names = "--port", paramLabel = "<port>", converter = OptionValues.Port.class,
            description = "RMI registry port of the --address slave (default: ${DEFAULT-VALUE}).")
    private int port = SlaveAddress.DEFAULT_PORT;

    @Option(names = "--engine-port", paramLabel = "<port>", converter = OptionValues.Port.class,
            description = "RMI port of the --address slave's engine (default: ${DEFAULT-VALUE}).")
    private int enginePort = 4000;

    @Mixin
    private JMeterHomeOption jmeterHome;

    @Option(names = "--logs", paramLabel = "<dir>",
            description = "Folder of the slaves' logs (default: results/<start time>-slaves/slaves).")
    private Path logs;

    @Option(names = "--heap", paramLabel = "<size>", description = "Heap of each slave, as for -Xmx (default: ${DEFAULT-VALUE}).")
    private String heap = "512m";

    @Option(names = "--no-ssl", description = "RMI without SSL (server.rmi.ssl.disable=true); the runs then need"
            + " -Jserver.rmi.ssl.disable=true too.")
    private boolean noSsl;

    @Mixin
    private RemoteDirOption remoteDir;

    @Override
    public Integer call() throws IOException {
        PrintStream out = out();
        Path dir = remoteDir.dir();
        Path pidFile = dir.resolve(SlavesCommand.PID_FILE);
        List<SlavesPidFile.Entry> running = SlavesPidFile.read(pidFile).stream()
                .filter(e -> e.process().isPresent()).toList();
        if (!running.isEmpty()) {
            throw new IOException(running.size() + " slave(s) of " + pidFile + " still run; `dsload slaves stop` first");
        }
        boolean ssl = !noSsl;
        Path home = jmeterHome.home();
        Path logDir = logs != null ? logs : Path.of("results", LocalDateTime.now()
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-slaves", "slaves");
        RmiSecurity security = ssl ? RmiSecurity.ssl(address == null ? RmiKeystore.ensure(dir, out)
                : RmiKeystore.existing(dir)) : RmiSecurity.disabled();
        List<SlaveProcess> slaves = new ArrayList<>();
        if (address != null) {
            SlaveProcess slave = SlaveProcess.launch(new SlaveProcess.Spec(home, address, port, enginePort, logDir,
                    Path.of("").toAbsolutePath(), security, heap, Map.of()));
            try {
                slave.awaitReady(Duration.ofSeconds(120));
            } catch (IOException e) {
                slave.stop(Duration.ofSeconds(5));
                throw e;
            }
            slaves.add(slave);
        } else {
            LocalSlaves local = LocalSlaves.start(new LocalSlaves.Options(home, logDir, Path.of("").toAbsolutePath(),
                    security, heap), count);
            slaves.addAll(local.slaves());
        }
        SlavesPidFile.write(pidFile, slaves);
        Path hosts = dir.resolve(SlavesCommand.HOSTS_FILE);
        HostsFile.write(hosts, slaves.stream().map(SlaveProcess::address).toList(),
                "slaves started by dsload slaves start; RMI over SSL " + (ssl ? "on" : "off"));
        for (SlaveProcess s : slaves) {
            out.println("slave " + s.address() + " pid " + s.pid() + " log " + s.log());
        }
        out.println("RMI over SSL: " + (ssl ? "on" : "off (server.rmi.ssl.disable=true)"));
        out.println("run on them:  bin/dsload run <plan.jmx> --hosts-file " + hosts + remoteDir.given()
                + (ssl ? "" : " -Jserver.rmi.ssl.disable=true"));
        out.println("stop them:    bin/dsload slaves stop" + remoteDir.given());
        return ExitCodes.OK;
    }
}

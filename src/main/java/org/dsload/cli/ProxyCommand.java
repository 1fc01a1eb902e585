package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.dsload.chaos.proxy.FaultProxy;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dsload proxy}: a fault proxy that runs until the process is stopped. */
@Command(name = "proxy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a fault proxy (delay, bandwidth, freeze, reset, loss per route) until stopped;"
                + " fault schedules drive it through its control port."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  1:a port cannot be bound", ExitCodes.USAGE_LINE, "130:stopped with Ctrl-C (SIGINT)",
            "143:stopped with SIGTERM (kill <pid>)"})
final class ProxyCommand extends Subcommand {
    @Option(names = "--route", paramLabel = "name=listen_host:port>server_host:port", required = true,
            converter = OptionValues.Route.class,
            description = "A route: clients connect to listen_host:port, the proxy forwards to server_host:port."
                    + " Repeat for several.")
    private List<FaultProxy.RouteSpec> routes;

    @Option(names = "--control", paramLabel = "<host:port>", defaultValue = "127.0.0.1:8474",
            converter = OptionValues.HostPort.class, description = "The control port (default: ${DEFAULT-VALUE}).")
    private InetSocketAddress control;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintStream out = out();
        FaultProxy proxy = FaultProxy.start(routes, control);
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stop.countDown();
        }, "dsload-proxy-stop"));
        out.println("dsload: fault proxy control on " + proxy.controlAddress() + "; " + proxy.command("ROUTES"));
        out.flush();
        stop.await();
        return ExitCodes.OK;
    }
}

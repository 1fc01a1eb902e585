package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.dsload.chaos.AppliedFaults;
import org.dsload.chaos.proxy.FaultProxy;

/** {@code dsload revert} and {@code dsload proxy}. */
final class FaultCommands {
    private FaultCommands() {
    }

    /**
     * Reverts the faults recorded in a run folder ({@code <run>/applied-faults}), or in the
     * well-known folder of this user when no folder is given.
     *
     * @return 0 when every recorded fault was reverted (or none was left), 1 otherwise
     */
    static int revert(List<String> args, PrintStream out) throws IOException {
        if (args.size() > 1) {
            throw new Main.UsageException("revert takes at most one folder");
        }
        Path dir = args.isEmpty() ? AppliedFaults.wellKnownDir() : Path.of(args.get(0));
        if (!args.isEmpty() && !Files.isDirectory(dir)) {
            // a mistyped run folder must not read as "nothing left applied"
            throw new Main.UsageException("revert: " + dir + " is not a folder");
        }
        if (!args.isEmpty() && Files.isDirectory(dir.resolve(AppliedFaults.FOLDER))) {
            dir = dir.resolve(AppliedFaults.FOLDER);
        }
        List<AppliedFaults.Reverted> done = AppliedFaults.revertRecorded(dir);
        if (done.isEmpty()) {
            out.println("dsload: no applied fault recorded in " + dir);
            return 0;
        }
        int failed = 0;
        for (AppliedFaults.Reverted r : done) {
            String what = r.record() == null ? "?" : r.record().label() + " (" + r.record().id() + ")";
            out.println("dsload: " + (r.ok() ? "reverted " : "FAILED to revert ") + what + ": " + r.message());
            if (!r.ok()) {
                failed++;
            }
        }
        out.println("dsload: " + (done.size() - failed) + " of " + done.size() + " fault(s) reverted"
                + (failed > 0 ? "; the failed ones keep their record in " + dir : ""));
        return failed == 0 ? 0 : 1;
    }

    /** Runs a fault proxy until the process is stopped. */
    static int proxy(List<String> args, PrintStream out) throws IOException, InterruptedException {
        List<FaultProxy.RouteSpec> routes = new ArrayList<>();
        String control = "127.0.0.1:8474";
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--route")) {
                routes.add(routeSpec(Main.value(args, ++i, a)));
            } else if (a.equals("--control")) {
                control = Main.value(args, ++i, a);
            } else {
                throw new Main.UsageException("unknown option " + a);
            }
        }
        if (routes.isEmpty()) {
            throw new Main.UsageException("proxy needs at least one --route name=listen_host:port>server_host:port");
        }
        int colon = control.lastIndexOf(':');
        InetSocketAddress controlAddress = new InetSocketAddress(control.substring(0, colon),
                Integer.parseInt(control.substring(colon + 1)));
        FaultProxy proxy = FaultProxy.start(routes, controlAddress);
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stop.countDown();
        }, "dsload-proxy-stop"));
        out.println("dsload: fault proxy control on " + proxy.controlAddress() + "; " + proxy.command("ROUTES"));
        out.flush();
        stop.await();
        return 0;
    }

    private static FaultProxy.RouteSpec routeSpec(String text) {
        try {
            return FaultProxy.RouteSpec.parse(text);
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException(e.getMessage());
        }
    }
}

package org.dsload.run;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM while runs go on: caught rather than left to the JVM's shutdown, so
 * that the run under way is stopped in order (JMeter ends its test and writes its last results,
 * then the runner writes the summary, charts and dashboard of what was recorded) and the command
 * ends with 130 or 143 as shells expect. A second signal stops JMeter at once. Without these
 * handlers (a runner inside another program), the JVM's shutdown still stops every process a run
 * started, with less care for the results.
 */
public final class RunSignals implements AutoCloseable {
    /** What the runner does when a signal comes: ask its JMeter to stop, or stop it at once. */
    interface Stopper {
        void askToStop();

        void stopAtOnce();
    }

    private final PrintStream console;
    private final Map<Signal, SignalHandler> previous = new HashMap<>();
    private volatile Signal caught;
    private volatile Stopper stopper;

    private RunSignals(PrintStream console) {
        this.console = console;
    }

    /** Catches SIGINT and SIGTERM until closed. */
    public static RunSignals catching(PrintStream console) {
        RunSignals signals = new RunSignals(console);
        for (String name : new String[] {"INT", "TERM"}) {
            Signal signal = new Signal(name);
            signals.previous.put(signal, Signal.handle(signal, signals::handle));
        }
        return signals;
    }

    private synchronized void handle(Signal signal) {
        Stopper s = stopper;
        if (caught != null) {
            console.println("dsload: SIG" + signal.getName() + " again: stopping JMeter at once");
            if (s != null) {
                new Thread(s::stopAtOnce, "dsload-stop-at-once").start();
            }
            return;
        }
        caught = signal;
        console.println("dsload: SIG" + signal.getName() + ": the run is interrupted; stopping it and keeping what was "
                + "recorded (once more to stop at once)");
        if (s != null) {
            new Thread(s::askToStop, "dsload-stop-run").start();
        }
    }

    /** Whom to stop when a signal comes; null when nothing runs. A signal already caught stops it now. */
    synchronized void stopping(Stopper s) {
        stopper = s;
        if (s != null && caught != null) {
            new Thread(s::askToStop, "dsload-stop-run").start();
        }
    }

    /** True once a signal was caught. */
    public boolean caught() {
        return caught != null;
    }

    /** The name of the signal caught (INT, TERM), or null. */
    public String signalName() {
        Signal s = caught;
        return s == null ? null : s.getName();
    }

    /** The exit code a shell gives a command ended by the signal caught: 128 + its number; 0 without one. */
    public int exitCode() {
        Signal s = caught;
        return s == null ? 0 : 128 + s.getNumber();
    }

    /** Gives the signals back to whoever handled them before. */
    @Override
    public void close() {
        previous.forEach(Signal::handle);
        previous.clear();
    }
}

package org.dsload.generator;

import java.nio.file.Path;

import org.dsload.process.ProcFs;

/**
 * The share of the machine's CPU time that its hypervisor gave to others while this machine's
 * threads were ready to run ("steal" in the kernel's accounting, {@code /proc/stat}), between two
 * readings. On a virtual machine the host can hold a virtual core for tens of milliseconds: every
 * thread on it stops, a generator's timer thread with them, and nothing inside the machine shows
 * it as busy. A generator that fell behind its schedule in such a second was not short of CPU of
 * its own.
 */
final class StolenCpu {
    /** Field of the steal time on the {@code cpu} line, after the name: user nice system idle iowait irq softirq steal. */
    private static final int STEAL = 7;

    private final Path source;
    private long lastSteal = -1;
    private long lastTotal = -1;

    StolenCpu(Path source) {
        this.source = source;
        read();
    }

    /**
     * The share since the last call, % of all cores' time; -1 where the machine does not account
     * steal (no {@code /proc/stat}: not Linux, or a kernel that leaves the field out).
     */
    double sinceLast() {
        long steal = lastSteal;
        long total = lastTotal;
        if (!read() || steal < 0 || lastTotal <= total) {
            return -1;
        }
        return 100.0 * (lastSteal - steal) / (lastTotal - total);
    }

    private boolean read() {
        long[] fields = ProcFs.machineCpuTicks(source);
        if (fields == null || fields.length <= STEAL) {
            lastSteal = -1;
            return false;
        }
        long total = 0;
        // guest time is already counted in user time: the eight fields up to steal make the whole
        for (int i = 0; i <= STEAL; i++) {
            total += fields[i];
        }
        lastSteal = fields[STEAL];
        lastTotal = total;
        return true;
    }
}

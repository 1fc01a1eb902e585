package org.dsload.generator;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.List;

import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.GeneratorMetrics;
import org.dsload.process.ProcFs;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;

/**
 * The JVM's own figures as gauges of the generator registry: CPU of this process and of the
 * machine, the CPU the machine's hypervisor took from it ({@link StolenCpu}), heap, time spent in
 * garbage collection, threads. CPU is a share of the time between two reports, so the figures are
 * read once per report ({@link #refresh}) and the gauges give the last reading, whichever reporter
 * asks.
 */
final class JvmFigures {
    static final String PROCESS_CPU = "jvm.cpu.process";
    static final String SYSTEM_CPU = "jvm.cpu.system";
    static final String STOLEN_CPU = "jvm.cpu.stolen";
    static final String CORES = "jvm.cpu.cores";
    static final String HEAP_USED = "jvm.heap.used";
    static final String GC_TIME = "jvm.gc.time";
    static final String JVM_THREADS = "jvm.threads";
    static final String JMETER_THREADS = "jmeter.threads";
    static final String CONNECTIONS = GeneratorMetrics.CONNECTIONS_PREFIX + "total";

    private static final long MIN_CPU_SPAN_NANOS = 200_000_000;

    private final com.sun.management.OperatingSystemMXBean os;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private final MetricRegistry registry;
    private final StolenCpu stolen = new StolenCpu(ProcFs.MACHINE_STAT);

    private long lastCpuNanos;
    private long lastWallNanos;
    private volatile double processCpu;
    private volatile double systemCpu;
    private volatile double stolenCpu = -1;
    private volatile long heapUsed;
    private volatile long gcMillis;
    private volatile int jvmThreads;
    private volatile int jmeterThreads;
    private volatile int connections;

    JvmFigures(MetricRegistry registry) {
        this.registry = registry;
        this.os = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean bean
                ? bean : null;
        lastCpuNanos = processCpuNanos();
        lastWallNanos = System.nanoTime();
        if (os != null) {
            os.getCpuLoad(); // the first reading only starts the machine's interval
        }
        publish(PROCESS_CPU, () -> processCpu);
        publish(SYSTEM_CPU, () -> systemCpu);
        publish(STOLEN_CPU, () -> stolenCpu);
        publish(CORES, () -> cores);
        publish(HEAP_USED, () -> heapUsed);
        publish(GC_TIME, () -> gcMillis);
        publish(JVM_THREADS, () -> jvmThreads);
        publish(JMETER_THREADS, () -> jmeterThreads);
        publish(CONNECTIONS, () -> connections);
    }

    /** Replaces a gauge an earlier test of this JVM (a slave serving several runs) left. */
    private <T> void publish(String name, Gauge<T> gauge) {
        registry.remove(name);
        registry.register(name, gauge);
    }

    private long processCpuNanos() {
        return os == null ? 0 : Math.max(0, os.getProcessCpuTime());
    }

    /** Takes the readings the gauges give until the next call. */
    void refresh() {
        long cpu = processCpuNanos();
        long wall = System.nanoTime();
        long span = wall - lastWallNanos;
        // The last report of a test can come a moment after the one before: too short to measure.
        if (span > MIN_CPU_SPAN_NANOS) {
            processCpu = round(100.0 * (cpu - lastCpuNanos) / ((double) span * cores));
            lastCpuNanos = cpu;
            lastWallNanos = wall;
            double load = os == null ? -1 : os.getCpuLoad();
            systemCpu = load < 0 ? -1 : round(load * 100);
            double steal = stolen.sinceLast();
            stolenCpu = steal < 0 ? -1 : round(steal);
        }
        heapUsed = memory.getHeapMemoryUsage().getUsed();
        long gc = 0;
        for (GarbageCollectorMXBean collector : collectors) {
            gc += Math.max(0, collector.getCollectionTime());
        }
        gcMillis = gc;
        jvmThreads = threads.getThreadCount();
        jmeterThreads = JMeterContextService.getNumberOfThreads();
        int open = 0;
        for (var gauge : registry.getGauges((name, metric) -> name.startsWith(GeneratorMetrics.CONNECTIONS_PREFIX)
                && !name.equals(CONNECTIONS)).values()) {
            if (gauge.getValue() instanceof Number n) {
                open += n.intValue();
            }
        }
        connections = open;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}

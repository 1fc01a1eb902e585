package org.dsload.generator;

import java.io.File;
import java.util.Locale;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;

import com.codahale.metrics.ConsoleReporter;
import com.codahale.metrics.Counter;
import com.codahale.metrics.CsvReporter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricFilter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.ScheduledReporter;
import com.codahale.metrics.Timer;

/**
 * One clock for the generator's reporters: each second it takes the JVM readings, then hands the
 * registry to Dropwizard's CSV reporter (one file per figure in the engine's folder) and, every
 * few seconds when asked, to its console reporter.
 */
final class EngineReporter extends ScheduledReporter {
    private final JvmFigures jvm;
    private final CsvReporter csv;
    private final ConsoleReporter console;
    private final int consoleEvery;
    private long ticks;

    /**
     * @param dir          folder for the CSV files, or null for none
     * @param consoleEvery seconds between console reports, 0 for none
     */
    EngineReporter(MetricRegistry registry, String engine, File dir, int consoleEvery) {
        super(registry, "dsload-generator-metrics-" + engine, MetricFilter.ALL, TimeUnit.SECONDS, TimeUnit.MILLISECONDS);
        this.jvm = new JvmFigures(registry);
        this.csv = dir == null ? null : CsvReporter.forRegistry(registry).formatFor(Locale.ROOT)
                .convertRatesTo(TimeUnit.SECONDS).convertDurationsTo(TimeUnit.MILLISECONDS).build(dir);
        this.console = consoleEvery <= 0 ? null : ConsoleReporter.forRegistry(registry).formattedFor(Locale.ROOT)
                .convertRatesTo(TimeUnit.SECONDS).convertDurationsTo(TimeUnit.MILLISECONDS).build();
        this.consoleEvery = consoleEvery;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void report(SortedMap<String, Gauge> gauges, SortedMap<String, Counter> counters,
            SortedMap<String, Histogram> histograms, SortedMap<String, Meter> meters, SortedMap<String, Timer> timers) {
        jvm.refresh();
        if (csv != null) {
            csv.report(gauges, counters, histograms, meters, timers);
        }
        if (console != null && ticks++ % consoleEvery == 0) {
            System.out.println("dsload generator metrics:"); // NOSONAR the console is where it was asked for
            console.report(gauges, counters, histograms, meters, timers);
        }
    }
}

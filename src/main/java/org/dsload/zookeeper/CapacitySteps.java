package org.dsload.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.JudgingListener;
import org.dsload.core.TestStop;
import org.dsload.core.format.RunProperties;
import org.dsload.zookeeper.report.CapacitySection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capacity Steps (listener): judges a load that grows in steps (S4: domains stepped by 100
 * until the ensemble fails) one step at a time, stops the test at the first step whose error
 * ratio or p99 passes its bound, and prints the capacity reached. The plan makes the load grow:
 * the threads of step k start k step lengths after the test. Steps are counted from the first
 * judged sample and placed by each sample's start time; judged times are JMeter's milliseconds.
 */
@TestElementMetadata(labelResource = "displayName")
public class CapacitySteps extends JudgingListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(CapacitySteps.class);

    private String startUnits = "5";
    private String stepUnits = "5";
    private String maxUnits = "20";
    private String stepSeconds = "60";
    private String maxErrorPercent = "1";
    private String maxP99Millis = "500";
    private String unit = "domains";
    private String labels = "";

    private transient CapacityJudge judge;
    private transient Pattern labelPattern;
    private transient long testStart;
    private transient boolean stopped;

    @Override
    protected void started(String host) {
        Fields f = new Fields(CapacitySteps.class, getName());
        try {
            int start = f.integer("startUnits", startUnits, 1, Integer.MAX_VALUE);
            int step = f.integer("stepUnits", stepUnits, 1, Integer.MAX_VALUE);
            int max = f.integer("maxUnits", maxUnits, start, Integer.MAX_VALUE);
            long seconds = f.longValue("stepSeconds", stepSeconds, 1, Long.MAX_VALUE);
            double errors = f.number("maxErrorPercent", maxErrorPercent);
            long p99 = f.longValue("maxP99Millis", maxP99Millis, 1, Long.MAX_VALUE);
            String filter = f.text("labels", labels);
            try {
                labelPattern = filter.isEmpty() ? null : Pattern.compile(filter);
            } catch (PatternSyntaxException e) {
                throw f.error("labels", "is not a regular expression: " + e.getDescription());
            }
            synchronized (this) {
                judge = new CapacityJudge(start, step, max, seconds * 1000, errors, p99 * 1000,
                        f.text("unit", unit).isEmpty() ? "units" : f.text("unit", unit));
                testStart = 0;
                stopped = false;
            }
        } catch (ConfigException e) {
            judge = null;
            log.error("dsload: {}", e.getMessage());
            System.err.println("dsload: " + e.getMessage()); // NOSONAR the console is where a headless user looks
        }
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        SampleResult r = event.getResult();
        if (labelPattern != null && !labelPattern.matcher(r.getSampleLabel()).matches()) {
            return;
        }
        boolean over;
        synchronized (this) {
            if (judge == null || stopped) {
                return;
            }
            if (testStart == 0) {
                // Steps count from the first sample: a slow start (class loading, a busy generator)
                // must not leave the first step empty.
                testStart = r.getStartTime();
            }
            over = judge.add(r.getStartTime() - testStart, r.getTime() * 1000, r.isSuccessful());
            if (over) {
                stopped = true;
            }
        }
        if (over) {
            System.out.println("dsload: " + judge.verdict() + "; stopping the test"); // NOSONAR console report
            TestStop.markStopping(judge.verdict());
            StandardJMeterEngine.stopEngine();
        }
    }

    @Override
    public void testEnded() {
        CapacityJudge done;
        synchronized (this) {
            done = judge;
            if (done == null) {
                return;
            }
            done.finish();
        }
        StringBuilder text = new StringBuilder();
        done.lines().forEach(l -> text.append(l).append('\n'));
        text.append(done.verdict()).append('\n');
        System.out.print(text.toString().lines().map(l -> "dsload capacity: " + l + "\n") // NOSONAR console report
                .reduce("", String::concat));
        log.info("dsload capacity:\n{}", text);
        String dir = JMeterUtils.getProperty(RunProperties.RUN_DIR);
        if (dir != null && !dir.isBlank()) {
            try {
                Files.writeString(Path.of(dir).resolve(CapacitySection.FILE), text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                log.warn("dsload: cannot write {}: {}", CapacitySection.FILE, e.toString());
            }
        }
    }

    public String getStartUnits() {
        return startUnits;
    }

    public void setStartUnits(String startUnits) {
        this.startUnits = startUnits;
    }

    public String getStepUnits() {
        return stepUnits;
    }

    public void setStepUnits(String stepUnits) {
        this.stepUnits = stepUnits;
    }

    public String getMaxUnits() {
        return maxUnits;
    }

    public void setMaxUnits(String maxUnits) {
        this.maxUnits = maxUnits;
    }

    public String getStepSeconds() {
        return stepSeconds;
    }

    public void setStepSeconds(String stepSeconds) {
        this.stepSeconds = stepSeconds;
    }

    public String getMaxErrorPercent() {
        return maxErrorPercent;
    }

    public void setMaxErrorPercent(String maxErrorPercent) {
        this.maxErrorPercent = maxErrorPercent;
    }

    public String getMaxP99Millis() {
        return maxP99Millis;
    }

    public void setMaxP99Millis(String maxP99Millis) {
        this.maxP99Millis = maxP99Millis;
    }

    public String getUnit() {
        return unit;
    }

    public void setUnit(String unit) {
        this.unit = unit;
    }

    public String getLabels() {
        return labels;
    }

    public void setLabels(String labels) {
        this.labels = labels;
    }
}

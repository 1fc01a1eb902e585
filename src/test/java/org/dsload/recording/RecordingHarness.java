package org.dsload.recording;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.RunProperties;
import org.dsload.testing.JMeterRuntime;

/**
 * An engine's side of histograms mode driven from a test: JMeter's properties for a run folder, sampler
 * threads with a listener in scope (as JMeterThread gives them), and a results file written from what
 * that listener received, the way JMeter's own results writer writes it.
 */
final class RecordingHarness implements AutoCloseable {
    /** A listener as JMeter calls it: every row it is given, in order. */
    static final class Collected extends AbstractTestElement implements SampleListener {
        private static final long serialVersionUID = 1L;
        final List<SampleEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void sampleOccurred(SampleEvent e) {
            events.add(e);
        }

        @Override
        public void sampleStarted(SampleEvent e) {
        }

        @Override
        public void sampleStopped(SampleEvent e) {
        }
    }

    final Path runDir;
    final Collected listener = new Collected();

    RecordingHarness(Path runDir, String mode) {
        this.runDir = runDir;
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.RECORD, mode);
        JMeterUtils.setProperty("dsload.run_dir", runDir.toString());
        JMeterUtils.setProperty("dsload.engine", "master");
        JMeterUtils.setProperty(SampleEvent.SAMPLE_VARIABLES, JtlColumns.TIMING);
        SampleEvent.initSampleVariables();
    }

    /**
     * Ends the recording and takes back the properties set here: other tests in this JVM record
     * rows, as a test without them does.
     */
    @Override
    public void close() {
        reset();
    }

    /** As {@link #close()}, for a test class's {@code @AfterEach}. */
    static void reset() {
        Recording.testEnded();
        for (String name : List.of(RunProperties.RECORD, "dsload.run_dir", "dsload.engine", SampleEvent.SAMPLE_VARIABLES)) {
            JMeterUtils.getJMeterProperties().remove(name);
        }
        SampleEvent.initSampleVariables();
    }

    /** Gives the calling thread what JMeterThread gives a sampler thread: variables and its sample package. */
    void enterSamplerThread() {
        JMeterVariables variables = JMeterRuntime.freshVariables();
        variables.putObject(JMeterThread.PACKAGE_OBJECT, new SamplePackage(List.of(), List.of(listener), List.of(),
                List.of(), List.of(), List.of(), List.of()));
        JMeterContextService.getContext().setVariables(variables);
    }

    /** A sample as a dsload sampler makes it: timed, then completed. */
    static SampleResult sample(String label, long micros, boolean ok, String code, String message) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setStampAndTime(System.currentTimeMillis(), micros / 1000);
        r.setSuccessful(ok);
        r.setResponseCode(code);
        r.setResponseMessage(message);
        r.setSentBytes(20);
        r.setBytes(100);
        Recording.timed(r, micros, -1, 0, false);
        Recording.completed(r);
        return r;
    }

    /** The results file JMeter's writer would have made of the rows the listener received. */
    Path writeResultsFile() throws IOException {
        SampleSaveConfiguration config = new SampleSaveConfiguration();
        config.setSampleCount(true);
        StringBuilder text = new StringBuilder(CSVSaveService.printableFieldNamesToString(config)).append('\n');
        List<SampleEvent> events = new ArrayList<>(listener.events);
        for (SampleEvent e : events) {
            e.getResult().setSaveConfig(config);
            text.append(CSVSaveService.resultToDelimitedString(e)).append('\n');
        }
        Path jtl = runDir.resolve("run.jtl");
        Files.writeString(jtl, text, StandardCharsets.UTF_8);
        return jtl;
    }
}

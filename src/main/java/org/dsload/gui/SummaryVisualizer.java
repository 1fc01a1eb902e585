package org.dsload.gui;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import java.awt.Font;
import java.text.MessageFormat;
import java.util.ResourceBundle;

import javax.swing.JButton;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.visualizers.gui.AbstractVisualizer;
import org.dsload.core.format.GaugeTable;
import org.dsload.report.RecordedInterval;

/**
 * dsload Summary (listener): the table {@code dsload summary} prints after a headless run, shown
 * in the GUI while the test runs. Percentiles are exact over every sample the listener has
 * received since it was last cleared; the text refreshes once a second while samples arrive.
 */
@TestElementMetadata(labelResource = "displayName")
public class SummaryVisualizer extends AbstractVisualizer {
    private static final long serialVersionUID = 1L;
    private static final ResourceBundle TEXT = ResourceBundle.getBundle(SummaryVisualizer.class.getName() + "Resources");
    private static final int REFRESH_MILLIS = 1000;

    private final transient LiveSummary summary = new LiveSummary();
    private final JTextArea table = new JTextArea();
    private final JLabel status = new JLabel();
    private long shownVersion = -1;

    public SummaryVisualizer() {
        setModel(new SummaryCollector());
        setLayout(new BorderLayout(0, 5));
        setBorder(makeBorder());
        add(makeTitlePanel(), BorderLayout.NORTH);

        table.setEditable(false);
        table.setFont(new Font(Font.MONOSPACED, Font.PLAIN, table.getFont().getSize()));
        JButton clear = new JButton(TEXT.getString("clear"));
        clear.setToolTipText(TEXT.getString("clear.tooltip"));
        clear.addActionListener(e -> clearData());
        JPanel controls = new JPanel(new FlowLayout(FlowLayout.LEFT));
        controls.add(clear);
        controls.add(status);
        JPanel body = new JPanel(new BorderLayout());
        body.add(controls, BorderLayout.NORTH);
        body.add(new JScrollPane(table), BorderLayout.CENTER);
        add(body, BorderLayout.CENTER);

        refresh();
        Timer timer = new Timer(REFRESH_MILLIS, e -> refresh());
        timer.setRepeats(true);
        timer.start();
    }

    /** Called by the collector on the sampling thread (or a slave's delivery thread). */
    @Override
    public void add(SampleResult sample) {
        if (GaugeTable.isStreamLabel(sample.getSampleLabel())) {
            return; // a slave's server gauges on their way to the live figures: no request
        }
        String timing = SummaryCollector.currentTiming();
        RecordedInterval aggregate = SampleRows.aggregate(sample, timing);
        if (aggregate != null) {
            summary.add(aggregate);
        } else {
            SampleRows.requests(sample, timing).forEach(summary::add);
        }
    }

    @Override
    public void clearData() {
        summary.clear();
        if (SwingUtilities.isEventDispatchThread()) {
            refresh();
        }
    }

    /** Shows the summary if it changed since it was last shown; runs on the event thread. */
    private void refresh() {
        long version = summary.version();
        if (version == shownVersion) {
            return;
        }
        shownVersion = version;
        long samples = summary.samples();
        status.setText(samples == 0 ? TEXT.getString("empty")
                : MessageFormat.format(TEXT.getString("samples"), samples));
        String text = summary.render();
        if (!text.equals(table.getText())) {
            table.setText(text);
            table.setCaretPosition(0);
        }
    }

    /** The text on screen, for checks of what a user sees. */
    String shownText() {
        return table.getText();
    }

    @Override
    public String getStaticLabel() {
        return TEXT.getString("displayName");
    }

    @Override
    public String getLabelResource() {
        return "displayName";
    }
}

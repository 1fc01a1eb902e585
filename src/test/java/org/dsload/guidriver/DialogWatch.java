package org.dsload.guidriver;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Window;
import java.util.ArrayList;
import java.util.List;

import javax.swing.AbstractButton;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.text.JTextComponent;

/**
 * Catches every dialog JMeter opens (an error reported to the user, a question) while the driver
 * works: it is reported as a problem with its text, then closed so that the GUI goes on.
 */
final class DialogWatch {
    private final Report report;
    private volatile String step = "start";
    private volatile boolean running = true;

    DialogWatch(Report report) {
        this.report = report;
    }

    void step(String name) {
        step = name;
    }

    void start() {
        Thread thread = new Thread(() -> {
            while (running) {
                try {
                    Edt.run(this::closeDialogs);
                } catch (RuntimeException e) {
                    // the GUI is busy (a long action): look again shortly
                }
                Edt.sleep(200);
            }
        }, "dsload-dialog-watch");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
    }

    /** Runs on the event thread. */
    void closeDialogs() {
        for (Window window : Window.getWindows()) {
            if (window instanceof Dialog dialog && dialog.isShowing()) {
                report.problem("dialog during " + step, "'" + dialog.getTitle() + "': " + text(dialog));
                dialog.dispose();
            }
        }
    }

    static String text(Container root) {
        List<String> parts = new ArrayList<>();
        collect(root, parts);
        return String.join(" / ", parts);
    }

    private static void collect(Component c, List<String> parts) {
        if (c instanceof JOptionPane pane && pane.getMessage() != null) {
            parts.add(String.valueOf(pane.getMessage()));
            return;
        } else if (c instanceof JLabel label && label.getText() != null && !label.getText().isBlank()) {
            parts.add(label.getText());
        } else if (c instanceof JTextComponent text && !text.getText().isBlank()) {
            parts.add(text.getText());
        } else if (c instanceof AbstractButton) {
            return;
        }
        if (c instanceof Container container) {
            for (Component child : container.getComponents()) {
                collect(child, parts);
            }
        }
    }
}

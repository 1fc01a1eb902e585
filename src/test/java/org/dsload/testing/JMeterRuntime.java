package org.dsload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.process.Folders;

/**
 * The little of JMeter's runtime that elements need when a test drives them directly in this
 * JVM: loaded properties and a thread context with variables.
 */
public final class JMeterRuntime {
    private static boolean initialised;

    private JMeterRuntime() {
    }

    public static synchronized void init() {
        if (initialised) {
            return;
        }
        try {
            Path home = Files.createTempDirectory("dsload-jmeter-home");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Folders.deleteTree(home);
                } catch (IOException e) {
                    // a temporary folder left behind
                }
            }, "dsload-jmeter-home-cleanup"));
            Path bin = Files.createDirectories(home.resolve("bin"));
            Path properties = bin.resolve("jmeter.properties");
            Files.writeString(properties, "sampleresult.timestamp.start=true\n");
            JMeterUtils.setJMeterHome(home.toString());
            JMeterUtils.loadJMeterProperties(properties.toString());
            JMeterUtils.setLocale(Locale.ENGLISH);
            initialised = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * As {@link #init}, with what JMeter's SaveService and NameUpdater read from the JMeter home to load a
     * saved plan: JMeter's own saveservice.properties and upgrade.properties, from its config jar.
     */
    public static synchronized void initSaveService() throws IOException {
        init();
        Path bin = Files.createDirectories(Path.of(JMeterUtils.getJMeterHome(), "bin"));
        for (String name : java.util.List.of("saveservice.properties", "upgrade.properties")) {
            if (!Files.exists(bin.resolve(name))) {
                try (java.io.InputStream in = JMeterRuntime.class.getClassLoader().getResourceAsStream("bin/" + name)) {
                    if (in == null) {
                        throw new IOException("bin/" + name + " is not on the test class path");
                    }
                    Files.copy(in, bin.resolve(name));
                }
            }
        }
    }

    /** Gives the calling thread fresh JMeter variables, as the engine thread has at test start. */
    public static JMeterVariables freshVariables() {
        init();
        JMeterVariables variables = new JMeterVariables();
        JMeterContextService.getContext().setVariables(variables);
        return variables;
    }

    /** Makes a worker thread see the variables (and so the clients) of the test thread. */
    public static void adopt(JMeterVariables variables, int threadNum) {
        JMeterContextService.getContext().setVariables(variables);
        JMeterContextService.getContext().setThreadNum(threadNum);
    }
}

package org.dsload.guidriver.launch;

import java.nio.file.Path;

import org.apache.jmeter.NewDriver;

/**
 * Starts JMeter's GUI exactly as {@code java -jar ApacheJMeter.jar} does, then runs the GUI
 * driver inside it. The driver's classes are handed to JMeter's own class loader (they use
 * JMeter's GUI classes, which only that loader sees); this class stays outside it.
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] jmeterArgs) throws Exception {
        Path driverClasses = Path.of(System.getProperty("dsload.driver.classes"));
        NewDriver.addURL(driverClasses.toUri().toURL());
        NewDriver.main(jmeterArgs);
        ClassLoader jmeter = Thread.currentThread().getContextClassLoader();
        Class<?> driver = Class.forName("org.dsload.guidriver.GuiDriver", true, jmeter);
        Thread thread = new Thread(() -> {
            try {
                driver.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            } catch (ReflectiveOperationException e) {
                e.printStackTrace(); // NOSONAR the process's output is the only place left
                Runtime.getRuntime().halt(3);
            }
        }, "dsload-gui-driver");
        thread.setContextClassLoader(jmeter);
        thread.start();
    }
}

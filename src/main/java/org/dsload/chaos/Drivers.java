package org.dsload.chaos;

import java.util.List;

/** The fault drivers by name, and which one serves a kind by default. */
public final class Drivers {
    private static final List<FaultDriver> ALL = List.of(new ProxyDriver(), new ProcessDriver(), new CommandDriver());

    private Drivers() {
    }

    public static FaultDriver named(String name) {
        for (FaultDriver d : ALL) {
            if (d.name().equalsIgnoreCase(name.trim())) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown fault driver '" + name.trim() + "' (drivers: proxy, process, command)");
    }

    /**
     * The driver of a fault: its own {@code driver=...} parameter, else the schedule's choice for
     * network kinds (proxy or command) or for the others (process or command).
     */
    public static FaultDriver choose(FaultKind kind, String own, String networkDefault, String processDefault) {
        String name = own != null && !own.isBlank() ? own : kind.network() ? networkDefault : processDefault;
        FaultDriver driver = named(name);
        if (!driver.supports(kind)) {
            throw new IllegalArgumentException("the " + driver.name() + " driver has no " + kind.id() + " fault");
        }
        return driver;
    }
}

package org.dsload.chaos;

import java.util.Map;

import org.dsload.chaos.proxy.ProxyControl;

/**
 * Network faults through a dsload fault proxy ({@code dsload proxy}) that the clients go through:
 * the fault acts on the target's route only, so on the traffic between the clients and that node.
 */
public final class ProxyDriver implements FaultDriver {
    public static final String NAME = "proxy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(FaultKind kind) {
        return kind.network();
    }

    @Override
    public Applied apply(FaultSpec spec) throws Exception {
        String control = spec.target().get("proxy", spec.settings().proxyControl());
        if (control == null || control.isBlank()) {
            throw new IllegalArgumentException("network faults through the proxy need the proxy's control address "
                    + "(the schedule's Proxy control field, or proxy=host:port on target '" + spec.target().name() + "')");
        }
        String route = spec.target().get("route", spec.target().name());
        StringBuilder command = new StringBuilder("APPLY ").append(route).append(' ').append(spec.kind().id());
        for (Map.Entry<String, String> p : proxyParams(spec).entrySet()) {
            command.append(' ').append(p.getKey()).append('=').append(p.getValue());
        }
        String state = ProxyControl.send(control, command.toString());
        FaultRecord record = new FaultRecord(spec.id(), spec.label(), spec.kind().id(), spec.target().name(), NAME)
                .put("proxy.control", control).put("proxy.route", route);
        return new Applied(record, "proxy " + control + " route " + state);
    }

    /** The schedule's parameters the proxy knows, named as it names them. */
    private static Map<String, String> proxyParams(FaultSpec spec) {
        return switch (spec.kind()) {
            case DELAY -> Map.of("delay", spec.param("delay", "200ms"), "direction", spec.param("direction", "up"));
            case BANDWIDTH -> Map.of("rate", spec.param("rate", "1mbit"));
            case LOSS -> Map.of("loss", spec.param("loss", "100%"));
            default -> Map.of();
        };
    }

    @Override
    public String revert(FaultRecord record) throws Exception {
        String state = ProxyControl.send(record.require("proxy.control"),
                "REVERT " + record.require("proxy.route") + " " + record.require(FaultRecord.KIND));
        return "proxy route " + state;
    }
}

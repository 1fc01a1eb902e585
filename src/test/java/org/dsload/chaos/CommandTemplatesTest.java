package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The command driver's templates: one pair for every kind, every placeholder accounted for, overrides checked. */
class CommandTemplatesTest {
    /** What a target and the driver itself give a template besides the fault's parameters. */
    private static final Map<String, String> TARGET_AND_DRIVER = Map.ofEntries(Map.entry("host", "10.0.0.3"),
            Map.entry("port", "9042"), Map.entry("pid", "4242"), Map.entry("dev", "veth1"), Map.entry("data", "/data"),
            Map.entry("start", "systemctl start cassandra"), Map.entry("id", "f1"), Map.entry("tag", "dsload-f1"),
            Map.entry("seconds", "60"), Map.entry("handle", "777"));

    @Test
    void everyKindHasAnApplyAndARevertWhosePlaceholdersAreAllGiven() {
        Map<String, String> values = new HashMap<>(CommandTemplates.PARAM_DEFAULTS);
        values.putAll(TARGET_AND_DRIVER);
        for (FaultKind kind : FaultKind.values()) {
            for (String side : new String[] {"apply", "revert"}) {
                String key = kind.id() + "." + side;
                String template = CommandTemplates.DEFAULTS.get(key);
                assertTrue(template != null && !template.isBlank(), "no default for " + key);
                String rendered = CommandDriver.render(template, values, key);
                assertTrue(!Pattern.compile("\\{[a-z_]+\\}").matcher(rendered).find(), key + " left a placeholder: " + rendered);
            }
        }
    }

    @Test
    void networkFaultsAreScopedToTheNodesAddressAndPortOrItsDevice() {
        Pattern placeholder = Pattern.compile("\\{([a-z_]+)\\}");
        for (FaultKind kind : FaultKind.values()) {
            if (!kind.network()) {
                continue;
            }
            Matcher m = placeholder.matcher(CommandTemplates.DEFAULTS.get(kind.id() + ".apply"));
            StringBuilder used = new StringBuilder();
            while (m.find()) {
                used.append(m.group(1)).append(' ');
            }
            assertTrue(used.toString().contains("dev ") || used.toString().contains("host ") && used.toString()
                    .contains("port "), kind.id() + " is not scoped to one node: " + used);
        }
    }

    @Test
    void aPlansTemplatesAreLinesOfKindAndSideWithComments() {
        assertEquals(Map.of("delay.apply", "tc qdisc add dev {dev} root netem delay {delay}",
                "cpu.revert", "pkill -f my-hog"), CommandTemplates.parse("# my delay\n"
                + "delay.apply = tc qdisc add dev {dev} root netem delay {delay}\n\ncpu.revert=pkill -f my-hog\n"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> CommandTemplates.parse("quake.apply = shake"));
        assertTrue(unknown.getMessage().contains("unknown fault kind 'quake'"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CommandTemplates.parse("delay.undo = tc"));
        assertTrue(CommandTemplates.parse(null).isEmpty());
    }
}

package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** docs/cli.md describes every command, every option and every exit code the command line has. */
class CommandLineDocsTest {
    private static String doc() throws IOException {
        return Files.readString(Checkout.basedir().resolve("docs/cli.md"), StandardCharsets.UTF_8);
    }

    @Test
    void everyCommandAndOptionIsDescribed() throws IOException {
        String doc = doc();
        List<String> missing = new ArrayList<>();
        for (List<String> words : CommandLineTest.commands()) {
            String command = String.join(" ", words);
            if (!doc.contains("dsload " + command)) {
                missing.add("command `dsload " + command + "`");
            }
            CommandLine cli = Main.commandLine(System.out, System.err);
            for (String word : words) {
                cli = cli.getSubcommands().get(word);
            }
            for (OptionSpec option : cli.getCommandSpec().options()) {
                if (option.usageHelp() || option.versionHelp()) {
                    continue;
                }
                if (!doc.contains("`" + option.longestName())) {
                    missing.add("option " + option.longestName() + " of " + command);
                }
            }
        }
        assertTrue(missing.isEmpty(), "docs/cli.md lacks: " + missing);
    }

    @Test
    void everyExitCodeIsDescribed() throws Exception {
        String doc = doc();
        for (Field f : ExitCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                int code = f.getInt(null);
                assertTrue(doc.contains("| " + code + " |"), "docs/cli.md has no row for exit code " + code + " (" + f.getName() + ")");
            }
        }
    }
}

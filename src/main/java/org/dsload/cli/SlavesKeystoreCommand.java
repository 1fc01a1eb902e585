package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;

import org.dsload.remote.RmiKeystore;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dsload slaves keystore}: the RMI keystore master and slaves share. */
@Command(name = "keystore", mixinStandardHelpOptions = true,
        description = {"Make the RMI keystore in <remote-dir> unless it is there, and say where it and its password are."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, "  1:the keystore cannot be made (keytool failed, folder not writable)",
            ExitCodes.USAGE_LINE})
final class SlavesKeystoreCommand extends Subcommand {
    @Mixin
    private RemoteDirOption remoteDir;

    @Override
    public Integer call() throws IOException {
        PrintStream out = out();
        RmiKeystore store = RmiKeystore.ensure(remoteDir.dir(), out);
        out.println("keystore: " + store.keystore());
        out.println("password: in " + store.passwordFile() + " (pass it to JMeter with -q)");
        return ExitCodes.OK;
    }
}

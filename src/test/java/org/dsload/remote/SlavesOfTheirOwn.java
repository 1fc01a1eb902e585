package org.dsload.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;

/**
 * Two jmeter-server slaves a test starts on this machine, each reading a redis-server of its own
 * (the plans' {@code hosts}, a property of the slave that the master does not send): what each
 * server counts is what that slave did.
 */
final class SlavesOfTheirOwn {
    private SlavesOfTheirOwn() {
    }

    /** The slaves, on 127.0.0.2 (reading {@code forFirst}) and 127.0.0.3, stopped when the test's JVM ends at the latest. */
    static LocalSlaves start(String name, EmbeddedRedis forFirst, EmbeddedRedis forSecond) throws IOException {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RmiSecurity security = RmiSecurity.ssl(RmiKeystore.ensure(keystoreDir(), quiet));
        Path logs = Checkout.target().resolve("test-results").resolve(name + "-" + System.currentTimeMillis()).resolve("slaves");
        LocalSlaves.Options options = new LocalSlaves.Options(Checkout.jmeterHome(), logs, logs.getParent(), security, "256m");
        return LocalSlaves.start(options, 2, address -> Map.of("hosts",
                address.host().equals(LocalSlaves.FIRST_ADDRESS) ? forFirst.address() : forSecond.address())).stopOnExit();
    }

    /** Where the tests' RMI keystore is: a run on these slaves passes it as its remote folder. */
    static Path keystoreDir() {
        return Checkout.target().resolve("rmi");
    }
}

package org.dsload.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The redis-server executable carried inside the Maven Central artifact
 * com.github.codemonstur:embedded-redis, copied out to target/ so it can run as a real process.
 */
public final class RedisBinary {
    private RedisBinary() {
    }

    public static synchronized Path path() {
        String resource = resourceName();
        Path binary = Build.work("redis-bin").resolve(resource);
        try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the embedded-redis artifact has no " + resource + " for this platform");
            }
            if (!Files.isExecutable(binary)) {
                Files.createDirectories(binary.getParent());
                Path partial = binary.resolveSibling(resource + ".partial");
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                if (!partial.toFile().setExecutable(true)) {
                    throw new IOException("cannot make " + partial + " executable");
                }
                Files.move(partial, binary, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + resource + ": " + e.getMessage(), e);
        }
    }

    private static String resourceName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm64");
        if (os.contains("linux")) {
            return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("mac")) {
            return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        }
        throw new IllegalStateException("no embedded redis-server for " + os + "/" + arch);
    }
}

package org.dsload.targets;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * The redis-server executable carried inside the Maven Central artifact
 * com.github.codemonstur:embedded-redis (resolved through {@code embedded-targets/redis}, never on
 * dsload's class path), copied out to {@code target/embedded/redis-bin/} so it can run as a real
 * process.
 */
public final class RedisBinary {
    private RedisBinary() {
    }

    public static synchronized Path path() {
        String resource = resourceName();
        Path binary = Checkout.work("redis-bin").resolve(resource);
        if (Files.isExecutable(binary)) {
            return binary;
        }
        Path jar = TargetClasspath.jars(TargetClasspath.REDIS).stream()
                .filter(p -> p.getFileName().toString().startsWith("embedded-redis")).findFirst()
                .orElseThrow(() -> new IllegalStateException("the class path of embedded-targets/redis holds no "
                        + "embedded-redis jar"));
        try (JarFile artifact = new JarFile(jar.toFile())) {
            ZipEntry entry = artifact.getEntry(resource);
            if (entry == null) {
                throw new IllegalStateException(jar + " has no " + resource + " for this platform");
            }
            Files.createDirectories(binary.getParent());
            Path partial = binary.resolveSibling(resource + ".partial-" + ProcessHandle.current().pid());
            try (InputStream in = artifact.getInputStream(entry)) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            if (!partial.toFile().setExecutable(true)) {
                throw new IOException("cannot make " + partial + " executable");
            }
            Files.move(partial, binary, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + resource + " from " + jar + ": " + e.getMessage(), e);
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

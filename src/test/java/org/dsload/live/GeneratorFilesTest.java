package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorFilesTest {

    @Test
    void eachEnginesLastCompleteLineOfItsCpuAndTargetRateFiles(@TempDir Path run) throws Exception {
        Path master = Files.createDirectories(run.resolve("generator/master"));
        Path slave = Files.createDirectories(run.resolve("slaves/127.0.0.2_1099/generator/slave-127.0.0.2_1099"));
        Files.writeString(master.resolve(GeneratorFiles.CPU), "t,value\n1795946790,3.5\n1795946791,4.25\n");
        Files.writeString(slave.resolve(GeneratorFiles.CPU), "t,value\n1795946790,40.0\n1795946791,4");
        Files.writeString(slave.resolve(GeneratorFiles.TARGET_RATE), "t,value\n1795946791,2500.0\n");
        Files.writeString(master.resolve(GeneratorFiles.TARGET_RATE), "t,value\n1795946791,0.0\n");
        GeneratorFiles files = new GeneratorFiles(run);
        assertEquals(Map.of("master", 4.25, "slave-127.0.0.2_1099", 40.0), files.cpu(),
                "a line still being written is left for the next second");
        assertEquals(Map.of("slave-127.0.0.2_1099", 2500.0), files.targetRate(), "an engine without a schedule has none");
        assertEquals(Map.of(), new GeneratorFiles(run.resolve("none")).cpu());
    }

    @Test
    void aReadServesTheScrapesAndLinesWithinItsPeriodAndAnEngineThatStartsLaterIsListedAtTheNextListing(
            @TempDir Path run) throws Exception {
        Path master = Files.createDirectories(run.resolve("generator/master"));
        Files.writeString(master.resolve(GeneratorFiles.CPU), "t,value\n1795946790,3.5\n");
        GeneratorFiles cached = new GeneratorFiles(run, Duration.ofHours(1), Duration.ofHours(1));
        assertEquals(Map.of("master", 3.5), cached.cpu());
        Files.writeString(master.resolve(GeneratorFiles.CPU), "1795946791,7.0\n", StandardOpenOption.APPEND);
        assertEquals(Map.of("master", 3.5), cached.cpu(), "read again only once its period is over");

        GeneratorFiles everyRead = new GeneratorFiles(run, Duration.ZERO, Duration.ofHours(1));
        assertEquals(Map.of("master", 7.0), everyRead.cpu());
        Path slave = Files.createDirectories(run.resolve("slaves/127.0.0.2_1099/generator/slave-127.0.0.2_1099"));
        Files.writeString(slave.resolve(GeneratorFiles.CPU), "t,value\n1795946791,40.0\n");
        Files.writeString(master.resolve(GeneratorFiles.CPU), "1795946792,8.0\n", StandardOpenOption.APPEND);
        assertEquals(Map.of("master", 8.0), everyRead.cpu(), "the files read again, the folders not listed again");
        assertEquals(Map.of("master", 8.0, "slave-127.0.0.2_1099", 40.0),
                new GeneratorFiles(run, Duration.ZERO, Duration.ZERO).cpu());

        Path empty = Files.createDirectories(run.resolve("later"));
        GeneratorFiles none = new GeneratorFiles(empty, Duration.ZERO, Duration.ofHours(1));
        assertEquals(Map.of(), none.cpu());
        Path late = Files.createDirectories(empty.resolve("generator/master"));
        Files.writeString(late.resolve(GeneratorFiles.CPU), "t,value\n1795946791,1.5\n");
        assertEquals(Map.of("master", 1.5), none.cpu(), "while no engine was found the folders are listed at every read");
    }
}

package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
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
}

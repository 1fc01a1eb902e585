package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorSectionTest {
    @TempDir
    Path run;

    private void figure(String engine, String name, String header, double... values) throws IOException {
        Path dir = Files.createDirectories(run.resolve("generator").resolve(engine));
        StringBuilder text = new StringBuilder(header).append('\n');
        for (int i = 0; i < values.length; i++) {
            text.append(1000 + i).append(',').append(values[i]).append('\n');
        }
        Files.writeString(dir.resolve(name + ".csv"), text);
    }

    private Summary summary(String codes) throws IOException {
        Path jtl = run.resolve("r.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseCode,responseMessage,success\n" + codes);
        return Summary.of(jtl);
    }

    @Test
    void peaksOfEveryEngineAreShown() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 10, 35.5, 20);
        figure("master", "jvm.heap.used", "t,value", 1_048_576, 52_428_800, 2_097_152);
        figure("master", "dsload.bytes.sent", "t,count", 0, 1000, 4000);
        figure("slave-127.0.0.2_1099", "jvm.cpu.process", "t,value", 5, 6);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertTrue(text.contains("== Generator master (peaks of per-second readings) =="), text);
        assertTrue(text.contains("CPU           [generator, other procs, cores]   35.50%, n/a, n/a"), text);
        assertTrue(text.contains("Heap          [used]                            50.0 MB"), text);
        assertTrue(text.contains("Sent          [total, per second]               4000 B, 3000 B/s"), text);
        assertTrue(text.contains("== Generator slave-127.0.0.2_1099"), text);
        assertFalse(text.contains("Warning"), text);
    }

    @Test
    void threeSecondsAbove90PercentOfTheGeneratorsOwnCpuIsASaturatedGenerator() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 95, 50, 91, 99, 92, 40);
        figure("master", "jvm.cpu.system", "t,value", 97, 60, 93, 99, 95, 45);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertTrue(text.contains("Warning: generator master saturated: its own process was the bottleneck for 3 s"),
                text);
    }

    @Test
    void aGeneratorHoldingMostOfAMachineWithNoCpuLeftIsSaturatedToo() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 60, 70, 65, 20);
        figure("master", "jvm.cpu.system", "t,value", 98, 99, 97, 30);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertTrue(text.contains("Warning: generator master saturated: its own process was the bottleneck for 3 s"),
                text);
    }

    @Test
    void aMachineBusyWithOtherProcessesIsNoSaturatedGeneratorAndSaysWhoseCpuItWas() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 18, 12, 15, 10);
        figure("master", "jvm.cpu.system", "t,value", 99, 98, 97, 40);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertFalse(text.contains("saturated"), text);
        assertTrue(text.contains("CPU           [generator, other procs, cores]   18.00%, 86.00%, n/a"), text);
        assertTrue(text.contains("Note: generator master's machine was busy for 3 s in a row (more than 90 % CPU), but "
                + "the generator process used at most 18.00%: other processes on the machine"), text);
    }

    @Test
    void aSingleBusySecondIsNot() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 95, 50, 99, 98, 40);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertFalse(text.contains("saturated"), text);
    }

    @Test
    void droppedArrivalsAndAnExhaustedPoolAreWarnedAbout() throws IOException {
        figure("master", "dsload.arrivals.dropped", "t,count", 0, 12);
        String text = new GeneratorSection().render(run, summary(
                "1,1,get,POOL_EXHAUSTED,Could not get a resource,false\n2,1,get,OK,OK,true\n")).orElseThrow();
        assertTrue(text.contains("Warning: generator master dropped 12 arrivals"), text);
        assertTrue(text.contains("Warning: 1 requests failed because the generator's connection pool was exhausted"),
                text);
    }

    @Test
    void aRunWithoutGeneratorFiguresHasNoSection() throws IOException {
        assertTrue(new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).isEmpty());
    }

    @Test
    void cpuTheHypervisorTookIsShownAndNotedWhenArrivalsWereLate() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 20, 25, 22, 21);
        figure("master", "jvm.cpu.stolen", "t,value", 1.5, 12.25, 0, 6);
        figure("master", "dsload.arrivals.late", "t,count", 0, 30, 30, 31);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertTrue(text.contains("CPU stolen    [peak, seconds above 5 %]         12.25%, 2"), text);
        assertTrue(text.contains("Note: generator master's machine is virtual, and its hypervisor took more than 5 % of its"
                + " CPU in 2 s (at most 12.25%)"), text);
    }

    @Test
    void stolenCpuIsNotNotedWithoutLateArrivalsNorShownWhereTheMachineDoesNotAccountIt() throws IOException {
        figure("master", "jvm.cpu.process", "t,value", 20, 25);
        figure("master", "jvm.cpu.stolen", "t,value", 9, 12);
        String text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertTrue(text.contains("CPU stolen    [peak, seconds above 5 %]         12.00%, 2"), text);
        assertFalse(text.contains("hypervisor"), text);

        figure("master", "jvm.cpu.stolen", "t,value", -1, -1);
        figure("master", "dsload.arrivals.late", "t,count", 0, 30);
        text = new GeneratorSection().render(run, summary("1,1,get,OK,OK,true\n")).orElseThrow();
        assertFalse(text.contains("CPU stolen"), text);
        assertFalse(text.contains("hypervisor"), text);
    }
}

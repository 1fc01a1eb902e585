package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records are split the way JMeter quotes them: commas, quotes and line breaks inside quoted fields. */
class CsvReaderTest {

    private static List<List<String>> records(String text) throws Exception {
        try (CsvReader csv = new CsvReader(new StringReader(text))) {
            List<List<String>> all = new java.util.ArrayList<>();
            List<String> r;
            while ((r = csv.next()) != null) {
                all.add(r);
            }
            return all;
        }
    }

    @Test
    void quotedFieldsKeepCommasDoubledQuotesAndLineBreaks() throws Exception {
        List<List<String>> all = records("a,b,c\n1,\"x, y\",\"say \"\"hi\"\"\"\r\n2,\"two\nlines\",\n");
        assertEquals(List.of(List.of("a", "b", "c"), List.of("1", "x, y", "say \"hi\""), List.of("2", "two\nlines", "")),
                all);
    }

    @Test
    void aRecordCutShortByTheEndOfTheInputComesBackAsFarAsItGoes() throws Exception {
        assertEquals(List.of(List.of("1", "2"), List.of("3", "\"unfinished")), records("1,2\n3,\"\"\"unfinished"));
    }

    @Test
    void aQuoteInsideAnUnquotedFieldIsText() throws Exception {
        assertEquals(List.of(List.of("5\" disk", "ok")), records("5\" disk,ok\n"));
    }

    @Test
    void theEndOfTheInputEndsTheRecords() throws Exception {
        try (CsvReader csv = new CsvReader(new StringReader("only\n"))) {
            assertEquals(List.of("only"), csv.next());
            assertNull(csv.next());
        }
    }

    @Test
    void theResultsReaderReadsBackWhatJMeterWroteWithCommasQuotesAndLineBreaks(@TempDir Path dir) throws Exception {
        JMeterRuntime.init();
        SampleSaveConfiguration config = SampleSaveConfiguration.staticConfig();
        String message = "ERR wrong, \"bad\" key\nsecond line";
        SampleResult result = new SampleResult(1_700_000_000_000L, 12);
        result.setSampleLabel("GET, \"quoted\" label");
        result.setResponseCode("ERR");
        result.setResponseMessage(message);
        result.setSuccessful(false);
        result.setSaveConfig(config);
        String header = CSVSaveService.printableFieldNamesToString(config);
        String row = CSVSaveService.resultToDelimitedString(new SampleEvent(result, "group"));
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, header + "\n" + row + "\n", StandardCharsets.UTF_8);

        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s = reader.next();
            assertEquals("GET, \"quoted\" label", s.label());
            assertEquals(message, s.responseMessage());
            assertEquals(12, s.elapsed());
            assertNull(reader.next());
            assertEquals(0, reader.malformedRows());
        }
    }

    @Test
    void theGeneratorFiguresAreReadWithTheSameRules(@TempDir Path dir) throws Exception {
        Path engine = Files.createDirectories(dir.resolve(GeneratorCsv.FOLDER).resolve("master"));
        Files.writeString(engine.resolve(GeneratorCsv.PROCESS_CPU + ".csv"), "\"t\",\"value\"\n100,12.5\n101,\"13.5\"\n102,1",
                StandardCharsets.UTF_8);
        GeneratorCsv.Engine read = GeneratorCsv.read(dir).get(0);
        assertEquals(List.of(new GeneratorCsv.Point(100, 12.5), new GeneratorCsv.Point(101, 13.5),
                new GeneratorCsv.Point(102, 1)), read.series(GeneratorCsv.PROCESS_CPU));
    }
}

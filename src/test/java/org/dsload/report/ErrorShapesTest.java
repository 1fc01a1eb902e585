package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The error set groups messages by their shape, so that one failure on many paths is one line. */
class ErrorShapesTest {

    private static LabelStats failures(String label, String... messages) {
        LabelStats stats = new LabelStats(label);
        for (String message : messages) {
            stats.add(new JtlSample(1000, 5, 5000, label, "NODEEXISTS", message, false, 0, 0, 5, 0, 1, "h", "t",
                    "", true));
        }
        return stats;
    }

    @Test
    void messagesThatDifferOnlyInNumbersAreOneLineWithTheVaryingPartsStarred() {
        LabelStats s = failures("create", "KeeperErrorCode = NodeExists for /ne/master/c1/0",
                "KeeperErrorCode = NodeExists for /ne/master/c1/1", "KeeperErrorCode = NodeExists for /ne/master/c2/17");
        assertEquals(Map.of("KeeperErrorCode = NodeExists for /ne/master/c*/*", 3L), s.errors());
    }

    @Test
    void partsThatNeverVaryStayAsTheyAre() {
        LabelStats s = failures("get", "no answer from 127.0.0.1:2181 within 13500 ms for /a/1",
                "no answer from 127.0.0.1:2181 within 13500 ms for /a/2");
        assertEquals(Map.of("no answer from 127.0.0.1:2181 within 13500 ms for /a/*", 2L), s.errors());
    }

    @Test
    void aSingleMessageIsKeptWhole() {
        assertEquals(Map.of("HTTP 500 at node 3", 1L), failures("q", "HTTP 500 at node 3").errors());
    }

    @Test
    void sessionIdsAndOtherHexIdsCountAsVaryingParts() {
        LabelStats s = failures("w", "session 0x10000a3b2c0001 expired", "session 0x10000f1e9d0002 expired",
                "request deadbeef42 refused", "request cafe0123ab refused");
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("session * expired", 2L);
        expected.put("request * refused", 2L);
        assertEquals(expected, s.errors());
    }

    @Test
    void wordsAroundTheNumbersKeepMessagesApart() {
        LabelStats s = failures("c", "NodeExists for /a/1", "NoNode for /a/2", "NodeExists for /a/3");
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("NodeExists for /a/*", 2L);
        expected.put("NoNode for /a/2", 1L);
        assertEquals(expected, s.errors());
    }

    @Test
    void mergingLabelsMergesTheirShapesAndWhatVaried() {
        LabelStats all = new LabelStats(Summary.ALL_LABELS);
        all.merge(failures("a", "NodeExists for /x/1", "NodeExists for /x/1"));
        all.merge(failures("b", "NodeExists for /x/2"));
        assertEquals(Map.of("NodeExists for /x/*", 3L), all.errors());
    }

    @Test
    void beyondTheLimitOfShapesTheRestIsCountedOnOneLine() {
        LabelStats s = new LabelStats("x");
        for (int i = 0; i < LabelStats.MAX_ERROR_MESSAGES + 5; i++) {
            String word = Integer.toString(i, 26).chars().mapToObj(c -> String.valueOf((char) ('a' + Character.digit(c, 26))))
                    .reduce("", String::concat);
            s.add(new JtlSample(1000, 5, 5000, "x", "E", "failure " + word + " 7", false, 0, 0, 5, 0, 1, "h", "t", "",
                    true));
        }
        assertEquals(LabelStats.MAX_ERROR_MESSAGES + 1, s.errors().size());
        assertEquals(5L, s.errors().get(LabelStats.OTHER_ERRORS));
    }
}

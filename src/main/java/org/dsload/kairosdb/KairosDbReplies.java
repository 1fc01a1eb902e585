package org.dsload.kairosdb;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reading KairosDB's answers: bodies as text up to a limit, and the error messages in them. */
final class KairosDbReplies {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern TITLE = Pattern.compile("(?is)<title>(.*?)</title>");
    /** Error bodies are read at least this far, whatever the response data limit, to find KairosDB's message. */
    static final int ERROR_TEXT = 8192;

    private KairosDbReplies() {
    }

    /** A body as text: the first {@code limit} characters, and whether there was more. */
    record Text(String text, boolean truncated) {
        String shown(int limit) {
            return truncated ? text + "\n... (truncated at " + limit + " characters)" : text;
        }
    }

    static KairosDbClient.BodyReader<Text> text(int limit) {
        return (status, contentType, body) -> read(body, status >= 300 ? Math.max(limit, ERROR_TEXT) : limit);
    }

    static Text read(InputStream body, int limit) throws IOException {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[4096];
        boolean truncated = false;
        Reader reader = new InputStreamReader(body, StandardCharsets.UTF_8);
        int n;
        while ((n = reader.read(buffer)) >= 0) {
            int room = limit - text.length();
            if (n > room) {
                text.append(buffer, 0, Math.max(0, room));
                truncated = true;
                break;
            }
            text.append(buffer, 0, n);
        }
        return new Text(text.toString(), truncated);
    }

    /**
     * What an error answer says: KairosDB's {@code {"errors": [...]}} messages joined, the title of
     * an HTML error page (Jetty answers 401 and 404 so), or the start of any other text.
     */
    static String errors(String body) {
        String trimmed = body.strip();
        if (trimmed.startsWith("{")) {
            try {
                JsonNode errors = MAPPER.readTree(trimmed).path("errors");
                if (errors.isArray() && errors.size() > 0) {
                    List<String> messages = new ArrayList<>();
                    errors.forEach(e -> messages.add(e.asText()));
                    return String.join("; ", messages);
                }
            } catch (IOException e) {
                // not JSON after all: shown as text below
            }
        }
        Matcher title = TITLE.matcher(trimmed);
        if (title.find()) {
            return title.group(1).strip();
        }
        String line = trimmed.replaceAll("\\s+", " ");
        return line.length() > 300 ? line.substring(0, 300) + " ..." : line;
    }
}

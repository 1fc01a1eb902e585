package org.dsload.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Markdown page as the link and layout checks read it: its prose, its headings' anchors, its links. */
final class Markdown {
    private static final Pattern FENCE = Pattern.compile("(?m)^\\s*```");
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`\\n]*`+");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    /** {@code [text](target)} and {@code ![alt](target)}, with an optional title after the target. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING_LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

    private final Path file;
    private final List<String> lines;

    private Markdown(Path file, List<String> lines) {
        this.file = file;
        this.lines = lines;
    }

    static Markdown read(Path file) throws IOException {
        return new Markdown(file, Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    Path file() {
        return file;
    }

    /** The lines outside fenced code blocks, with inline code removed: where links and headings are. */
    List<String> prose() {
        List<String> prose = new ArrayList<>();
        boolean inFence = false;
        for (String line : lines) {
            if (FENCE.matcher(line).lookingAt()) {
                inFence = !inFence;
                prose.add("");
            } else {
                prose.add(inFence ? "" : INLINE_CODE.matcher(line).replaceAll(""));
            }
        }
        return prose;
    }

    /** Every link target of the page, as written, with its line number. */
    List<Link> links() {
        List<Link> links = new ArrayList<>();
        List<String> prose = prose();
        for (int i = 0; i < prose.size(); i++) {
            Matcher m = LINK.matcher(prose.get(i));
            while (m.find()) {
                links.add(new Link(i + 1, m.group(1)));
            }
        }
        return links;
    }

    /** The anchors GitHub gives the page's headings: repeated ones get -1, -2 ... */
    Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : lines) {
            if (FENCE.matcher(line).lookingAt()) {
                inFence = !inFence;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (inFence || !m.matches()) {
                continue;
            }
            String slug = slug(m.group(1));
            int times = seen.merge(slug, 1, Integer::sum);
            anchors.add(times == 1 ? slug : slug + "-" + (times - 1));
        }
        return anchors;
    }

    /**
     * A heading's anchor as GitHub makes it: the heading's text (a link counts as its text) in lower
     * case, without punctuation, spaces turned into hyphens.
     */
    static String slug(String heading) {
        String text = HEADING_LINK.matcher(heading).replaceAll("$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N}\\p{M}_\\- ]", "").replace(' ', '-');
    }

    /** The lines of the section under the heading {@code ## title}, up to the next heading of that level or above. */
    List<String> section(String title) {
        List<String> section = new ArrayList<>();
        boolean in = false;
        for (String line : lines) {
            if (line.matches("#{1,2}\\s.*")) {
                in = line.equals("## " + title);
                continue;
            }
            if (in) {
                section.add(line);
            }
        }
        return section;
    }

    record Link(int line, String target) {
        /** Links to web pages and mail are not checked here: only files of the checkout and anchors. */
        boolean isLocal() {
            return !target.matches("(?i)[a-z][a-z0-9+.-]*:.*") && !target.startsWith("//");
        }

        String path() {
            int hash = target.indexOf('#');
            return hash < 0 ? target : target.substring(0, hash);
        }

        String anchor() {
            int hash = target.indexOf('#');
            return hash < 0 ? null : target.substring(hash + 1);
        }
    }
}

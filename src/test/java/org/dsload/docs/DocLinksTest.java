package org.dsload.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.dsload.targets.Checkout;
import org.junit.jupiter.api.Test;

/**
 * Every link of the README, the pages under docs/ and the READMEs of the top folders that points
 * into the checkout leads somewhere: the file or folder exists, and an anchor names a heading of
 * the page it points to.
 */
class DocLinksTest {
    private static final List<String> FOLDER_READMES = List.of(
            "jmeter-plugins/README.md", "remote-servers/README.md", "results/README.md", "examples/maven-verify/README.md");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyLocalLinkOfTheDocsResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            Markdown doc = Markdown.read(page);
            for (Markdown.Link link : doc.links()) {
                if (!link.isLocal()) {
                    continue;
                }
                checked++;
                String problem = problem(page, link);
                if (problem != null) {
                    broken.add(Checkout.basedir().relativize(page) + ":" + link.line() + ": " + link.target() + ": " + problem);
                }
            }
        }
        assertTrue(checked > 50, "only " + checked + " local links found: is the link pattern still right?");
        assertTrue(broken.isEmpty(), "links that lead nowhere:\n" + String.join("\n", broken));
    }

    @Test
    void anchorsAreTheOnesGitHubMakesOfHeadings() {
        assertEquals("recording-rows-or-histograms", Markdown.slug("Recording: rows or histograms"));
        assertEquals("dsload-slaves-start--stop--status--keystore", Markdown.slug("dsload slaves start | stop | status | keystore"));
        assertEquals("dsload-zookeeper-connection-config-element", Markdown.slug("dsload ZooKeeper Connection (Config Element)"));
        assertEquals("the-summary-in-the-gui", Markdown.slug("The summary in the [GUI](gui.md)"));
    }

    @Test
    void aLinkToAMissingFileOrHeadingIsCaught() throws IOException {
        Path page = Checkout.basedir().resolve("README.md");
        assertNotNull(problem(page, new Markdown.Link(1, "docs/no-such-page.md")));
        assertNotNull(problem(page, new Markdown.Link(1, "docs/cli.md#no-such-heading")));
        assertNotNull(problem(page, new Markdown.Link(1, "#no-such-heading")));
        assertNull(problem(page, new Markdown.Link(1, "docs/cli.md#exit-codes")));
        assertNull(problem(page, new Markdown.Link(1, "#layout")));
    }

    private List<Path> pages() throws IOException {
        Path base = Checkout.basedir();
        List<Path> pages = new ArrayList<>();
        pages.add(base.resolve("README.md"));
        try (Stream<Path> docs = Files.list(base.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        FOLDER_READMES.forEach(p -> pages.add(base.resolve(p)));
        assertTrue(pages.size() > 10, "pages: " + pages);
        return pages;
    }

    /** What is wrong with a link, or null when it leads to an existing file and heading. */
    private String problem(Path page, Markdown.Link link) throws IOException {
        String path = URLDecoder.decode(link.path(), StandardCharsets.UTF_8);
        // A leading slash is the checkout's root, as GitHub reads it.
        Path target = path.isEmpty() ? page
                : path.startsWith("/") ? Checkout.basedir().resolve(path.substring(1)).normalize()
                : page.getParent().resolve(path).normalize();
        if (!Files.exists(target)) {
            return "no such file";
        }
        String anchor = link.anchor();
        if (anchor == null) {
            return null;
        }
        if (!target.getFileName().toString().endsWith(".md")) {
            return "an anchor into a file that is not a Markdown page";
        }
        Set<String> headings = anchors.get(target);
        if (headings == null) {
            headings = Markdown.read(target).anchors();
            anchors.put(target, headings);
        }
        return headings.contains(anchor) ? null : "no heading with the anchor #" + anchor + " in " + target.getFileName();
    }
}

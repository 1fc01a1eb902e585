package org.dsload.influxdb;

import static org.dsload.influxdb.InfluxDbFixture.connection;
import static org.dsload.influxdb.InfluxDbFixture.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.SamplerThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The InfluxDB 2.x write request, against a small HTTP endpoint in the test (the JDK's HttpServer)
 * that answers as InfluxDB 2 does: InfluxDB 2 is not in Debian's packages and cannot be fetched here.
 */
@Timeout(60)
class InfluxDbV2RequestTest {
    private record Seen(String method, String path, String query, String authorization, String contentType, String body) {
    }

    private static HttpServer server(List<Seen> seen, String token) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 10);
        server.createContext("/", exchange -> answer(exchange, seen, token));
        server.start();
        return server;
    }

    private static void answer(HttpExchange exchange, List<Seen> seen, String token) throws IOException {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                exchange.getRequestURI().getRawQuery(), auth, exchange.getRequestHeaders().getFirst("Content-Type"),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        if (exchange.getRequestURI().getPath().equals("/ping")) {
            exchange.sendResponseHeaders(204, -1);
        } else if (!("Token " + token).equals(auth)) {
            byte[] body = "{\"code\":\"unauthorized\",\"message\":\"unauthorized access\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
        } else {
            exchange.sendResponseHeaders(204, -1);
        }
        exchange.close();
    }

    private static InfluxDbConnection v2(HttpServer server, String token) {
        InfluxDbConnection c = connection("http://127.0.0.1:" + server.getAddress().getPort());
        c.setApi(InfluxDbConnection.V2);
        c.setOrganization("my org");
        c.setBucket("b1");
        c.setToken(token);
        c.setPrecision("ms");
        return c;
    }

    @Test
    void writesGoToTheBucketOfTheOrganizationWithTheToken() throws Exception {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        HttpServer server = server(seen, "t0k3n");
        try {
            SamplerThread run = new SamplerThread(v2(server, "t0k3n"));
            try (run) {
                run.drain(write("cpu value=1 1700000000000", 3), SamplerThread.arrivals(5));
            }
            assertTrue(run.requests().stream().allMatch(r -> r.outcome().code().equals("204")));
            Seen ping = seen.get(0);
            assertEquals("/ping", ping.path(), "the check at start");
            List<Seen> writes = seen.stream().filter(s -> s.path().equals("/api/v2/write")).toList();
            assertEquals(5, writes.size());
            Seen w = writes.get(0);
            assertEquals("POST", w.method());
            assertEquals("org=my+org&bucket=b1&precision=ms", w.query());
            assertEquals("Token t0k3n", w.authorization());
            assertEquals("text/plain; charset=UTF-8", w.contentType());
            assertEquals("cpu value=1 1700000000000", w.body());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRefusedTokenStopsTheTestWithTheServersSentenceAndTheTokenShowsNowhere() throws Exception {
        HttpServer server = server(new CopyOnWriteArrayList<>(), "right");
        try {
            InfluxDbConnection c = v2(server, "wrong-token");
            SamplerThread run = new SamplerThread(c);
            SampleResult r;
            try (run) {
                r = run.sample(write("cpu value=1", 1));
            }
            assertEquals("401", r.getResponseCode());
            assertTrue(r.isStopTest());
            assertTrue(r.getResponseMessage().contains("unauthorized access"), r.getResponseMessage());
            assertFalse(r.getResponseMessage().contains("wrong-token") || r.getSamplerData().contains("wrong-token")
                    || r.getResponseDataAsString().contains("wrong-token"));
        } finally {
            server.stop(0);
        }
    }
}

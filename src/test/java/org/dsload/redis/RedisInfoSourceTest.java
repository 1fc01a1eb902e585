package org.dsload.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

class RedisInfoSourceTest {

    @Test
    void infoLinesBecomeValuesAndCommandstatsOneColumnOfCalls() {
        String info = "# Server\r\nredis_version:6.2.11\r\nuptime_in_seconds:2\r\n\r\n# Stats\r\n"
                + "total_commands_processed:3\r\n# Commandstats\r\n"
                + "cmdstat_get:calls=2,usec=2,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r\n"
                + "cmdstat_config|get:calls=1,usec=8,usec_per_call=8.00\r\n";
        Map<String, String> values = RedisInfoSource.parse(info);
        assertEquals("6.2.11", values.get("redis_version"));
        assertEquals("3", values.get("total_commands_processed"));
        assertEquals("get=2 config|get=1", values.get("commandstats"));
    }
}

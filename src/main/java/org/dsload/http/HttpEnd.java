package org.dsload.http;

/**
 * The detail a request of an {@link HttpTransport} ends with: what was sent, and the answer, or
 * null when none came (no connection, a timeout, a cancelled request).
 */
public record HttpEnd(HttpPlace.Sent sent, HttpReply reply) {
}

package org.tracingfacility.core;

/**
 * Where {@link TfCore#enhance(EnhanceRequest, ReplyCache)} looks for the core's reply to a
 * request before calling the core, and keeps the replies it got. The core's reply depends on
 * the request's bytes alone (and on the core), so a reply found for equal bytes is the reply.
 */
public interface ReplyCache {
    /** The reply kept for exactly {@code request}, or null. Never throws: a failure is a miss. */
    byte[] find(byte[] request);

    /** Keeps {@code reply} for {@code request}, if it can; never throws. */
    void keep(byte[] request, byte[] reply);
}

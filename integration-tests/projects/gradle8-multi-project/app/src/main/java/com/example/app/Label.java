package com.example.app;

/** Traced with this project's own group; the integration test edits its text. */
@Labels
public class Label {
    @Labels
    public String of(int count) {
        return count + " items";
    }
}

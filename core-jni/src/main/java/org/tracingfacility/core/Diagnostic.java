package org.tracingfacility.core;

import java.util.Objects;
import java.util.Optional;

/** One offence or failure reported by the core, located as precisely as the core knows it. */
public final class Diagnostic {
    private final String file;
    private final String className;
    private final String method;
    private final String rule;
    private final String message;

    /**
     * @param file the class file or jar entry concerned, or null
     * @param className the class in binary-name form ({@code com.example.Foo}), or null
     * @param method the method as {@code name(descriptor)}, or null
     * @param rule a short rule identifier such as {@code parse}
     * @param message the sentence a user reads
     */
    public Diagnostic(String file, String className, String method, String rule, String message) {
        this.file = file;
        this.className = className;
        this.method = method;
        this.rule = Objects.requireNonNull(rule, "rule");
        this.message = Objects.requireNonNull(message, "message");
    }

    /** The class file, when the diagnostic is about one. */
    public Optional<String> file() {
        return Optional.ofNullable(file);
    }

    /** The class, when the diagnostic is about one. */
    public Optional<String> className() {
        return Optional.ofNullable(className);
    }

    /** The method (name and descriptor), when the diagnostic is about one. */
    public Optional<String> method() {
        return Optional.ofNullable(method);
    }

    /** The rule broken, a short stable name (e.g. {@code filter}, {@code verify}). */
    public String rule() {
        return rule;
    }

    /** What went wrong, for a person. */
    public String message() {
        return message;
    }

    /** {@code file: class.method: message [rule]}, leaving out what is unknown (as the core prints it). */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        if (file != null) {
            text.append(file).append(": ");
        }
        if (className != null) {
            text.append(className);
            if (method != null) {
                text.append('.').append(method);
            }
            text.append(": ");
        }
        return text.append(message).append(" [").append(rule).append(']').toString();
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Diagnostic)) {
            return false;
        }
        Diagnostic that = (Diagnostic) other;
        return Objects.equals(file, that.file) && Objects.equals(className, that.className)
                && Objects.equals(method, that.method) && rule.equals(that.rule)
                && message.equals(that.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(file, className, method, rule, message);
    }
}

package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tracingfacility.it.LanguageProgram.invocation;
import static org.tracingfacility.it.LanguageProgram.offMain;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code projects/kotlin-coroutines}: compiled by kotlinc (kotlin-maven-plugin), enhanced by
 * {@code tf:enhance}, run with a recording monitor that prints every event.
 *
 * <p>What enter and exit mean for a suspend function: kotlinc compiles it to a JVM method that
 * takes a continuation and returns {@code Object}, and every resumption of its state machine
 * calls that method again. So each resumption is an invocation of its own: it enters, and it
 * exits either with {@code COROUTINE_SUSPENDED} (it suspended again) or with the function's
 * result. A function that suspends twice shows three enter/exit pairs. A suspending tail call
 * has no state machine: the function is invoked once, exits with {@code COROUTINE_SUSPENDED},
 * and its result goes straight to its caller.
 *
 * <p>Every state machine here ({@code Pipeline}'s suspend functions but {@code offloadTail} and
 * {@code square}, and the sequence lambda's {@code invokeSuspend}) returns with a value left
 * below its result on the operand stack, as kotlinc's state machines do: the enhanced classes
 * must still verify, and HotSpot checks that when the program loads them.
 */
class KotlinCoroutinesIT {
    private static final String SUSPENDED = "COROUTINE_SUSPENDED";

    @Test
    void eachResumptionOfASuspendFunctionIsAnInvocationAndKotlincsOtherShapesAreTraced() throws Exception {
        LanguageProgram program = LanguageProgram.build("kotlin-coroutines", "kotlin-coroutines");

        List<String> output = program.run("com.example.coroutines.MainKt");

        List<String> expected = new ArrayList<>();
        expected.add("-- delay, then yield");
        // Suspends at delay, is resumed and suspends at yield, is resumed and returns.
        expected.addAll(invocation("Pipeline.fetch", SUSPENDED));
        expected.addAll(invocation("Pipeline.fetch", SUSPENDED));
        expected.addAll(invocation("Pipeline.fetch", "6"));
        expected.add("fetch(3) = 6");
        expected.add("-- withContext");
        // The work runs on a worker thread while offload is suspended; offload resumes on main.
        expected.addAll(invocation("Pipeline.offload", SUSPENDED));
        expected.addAll(offMain(invocation("Pipeline.square", "16")));
        expected.addAll(invocation("Pipeline.offload", "17"));
        expected.add("offload(4) = 17");
        // A tail call: invoked once; withContext's result goes to the caller directly.
        expected.addAll(invocation("Pipeline.offloadTail", SUSPENDED));
        expected.addAll(offMain(invocation("Pipeline.square", "25")));
        expected.add("offloadTail(5) = 25");
        expected.add("-- channel");
        // A rendezvous channel on one event loop: the receiver waits first; the sender hands over
        // 1 to it and waits with 2; the receiver takes 1, then 2 from the waiting sender, and
        // waits again; the sender closes the channel; the receiver sees it closed and returns.
        expected.addAll(invocation("Pipeline.sum", SUSPENDED));
        expected.addAll(invocation("Pipeline.produce", SUSPENDED));
        expected.addAll(invocation("Pipeline.sum", SUSPENDED));
        expected.addAll(invocation("Pipeline.produce", "kotlin.Unit"));
        expected.addAll(invocation("Pipeline.sum", "3"));
        expected.add("sum = 3");
        expected.add("-- exception");
        // All three suspend, nested. failAfterDelay's resumption throws; passOn's state machine
        // is then invoked with the failure and rethrows it (an invocation ended by a throwable
        // it did not report yet: one exception event); recover's is invoked with it and catches.
        expected.addAll(List.of(
                "enter Pipeline.recover",
                "enter Pipeline.passOn",
                "enter Pipeline.failAfterDelay",
                "exit Pipeline.failAfterDelay -> " + SUSPENDED,
                "exit Pipeline.passOn -> " + SUSPENDED,
                "exit Pipeline.recover -> " + SUSPENDED,
                "enter Pipeline.failAfterDelay",
                "exception Pipeline.failAfterDelay IllegalStateException: boom",
                "exit Pipeline.failAfterDelay -> null",
                "enter Pipeline.passOn",
                "exception Pipeline.passOn IllegalStateException: boom",
                "exit Pipeline.passOn -> null"));
        expected.addAll(invocation("Pipeline.recover", "recovered boom"));
        expected.add("recovered boom");
        expected.add("-- sequence");
        // The sequence {} lambda's state machine (filter-selected): one invocation per element
        // asked for, each suspending in yield(), and a last one that finds the loop done.
        String step = "Generators$evens$1.invokeSuspend";
        expected.addAll(invocation(step, SUSPENDED));
        expected.addAll(invocation(step, SUSPENDED));
        expected.addAll(invocation(step, SUSPENDED));
        expected.addAll(invocation(step, "kotlin.Unit"));
        expected.add("evens = [0, 2, 4]");
        expected.add("-- shapes");
        // Shape("square") calls kotlinc's synthetic constructor, which fills in the default and
        // calls Shape(String, int): synthetic methods are never monitored, so both constructions
        // show the one constructor (monitored from after its super() call).
        expected.addAll(List.of("enter Shape.<init>", "exit Shape.<init>"));
        expected.addAll(invocation("Shape.describe", "square has 4 sides"));
        expected.add("square has 4 sides");
        expected.addAll(List.of("enter Shape.<init>", "exit Shape.<init>"));
        expected.addAll(invocation("Shape.describe", "triangle has 3 sides"));
        expected.add("triangle has 3 sides");
        // The object's static initializer creates its INSTANCE.
        expected.addAll(List.of(
                "enter Counter.<clinit>",
                "enter Counter.<init>",
                "exit Counter.<init>",
                "exit Counter.<clinit>"));
        expected.addAll(invocation("Counter.next", "1"));
        expected.addAll(invocation("Counter.next", "2"));
        expected.add("counter 1 2");
        // The inline class: static methods on the unboxed double, with kotlinc's mangled names.
        expected.addAll(invocation("Meters.constructor-impl", "1.5"));
        expected.addAll(invocation("Meters.constructor-impl", "2.0"));
        expected.add("enter Meters.plus-Ewyqpk4");
        expected.addAll(invocation("Meters.constructor-impl", "3.5"));
        expected.add("exit Meters.plus-Ewyqpk4 -> 3.5");
        expected.addAll(invocation("Meters.toString-impl", "3.5m"));
        expected.add("total 3.5m");

        assertEquals(String.join("\n", expected), String.join("\n", output));
    }
}

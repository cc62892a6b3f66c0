package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tracingfacility.it.KotlinCoroutinesIT.invocation;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code projects/scala-app}: compiled by scalac 2.13 (scala-maven-plugin), enhanced by
 * {@code tf:enhance}, run with a recording monitor that prints every event. What the events
 * show is what scalac made of the source: constructors calling the trait's {@code $init$},
 * a class's forwarder to the trait's default method (the static accessor between them is
 * synthetic, so not monitored), accessors called by pattern matching, a by-name argument
 * evaluated inside the callee.
 */
class ScalaProgramIT {
    @Test
    void whatScalacMadeOfTraitsCaseClassesPatternsAndClosuresIsTraced() throws Exception {
        LanguageProgram program = LanguageProgram.build("scala-app");

        List<String> output = program.run("com.example.shop.Main");

        List<String> expected = new ArrayList<>();
        expected.add("-- case class");
        // Item("tea", 250): scalac calls the constructor directly, not the companion's apply.
        // The trait's initializer runs inside the constructor, after super().
        for (int i = 0; i < 2; i++) {
            expected.addAll(List.of(
                    "enter Item.<init>", "enter Priced.$init$", "exit Priced.$init$", "exit Item.<init>"));
        }
        expected.add("-- trait default method");
        expected.addAll(priceWithTax("250", "300"));
        expected.add("tea with tax: 300");
        expected.add("-- closure");
        // The closure's body (a method scalac lifted into Cart) is not annotated; what it calls is.
        expected.add("enter Cart.total");
        expected.addAll(priceWithTax("250", "300"));
        expected.addAll(priceWithTax("2000", "2400"));
        expected.add("exit Cart.total -> 2700");
        expected.add("total: 2700");
        expected.add("-- by-name");
        // The argument is evaluated where twice uses it, twice, inside twice's invocation.
        expected.add("enter Cart.twice");
        expected.addAll(invocation("Cart.square", "9"));
        expected.addAll(invocation("Cart.square", "9"));
        expected.add("exit Cart.twice -> 18");
        expected.add("twice: 18");
        expected.add("-- pattern matching");
        // The object's static initializer creates its MODULE$.
        expected.addAll(List.of(
                "enter Describe$.<clinit>", "enter Describe$.<init>", "exit Describe$.<init>", "exit Describe$.<clinit>"));
        // Item(name, cents) reads both accessors, then the guard picks the first case.
        expected.add("enter Describe$.describe");
        expected.addAll(invocation("Item.name", "teapot"));
        expected.addAll(invocation("Item.cents", "2000"));
        expected.add("exit Describe$.describe -> teapot (expensive)");
        expected.add("teapot (expensive)");
        // The guard fails; the type pattern's case reads the accessors again for the string.
        expected.add("enter Describe$.describe");
        expected.addAll(invocation("Item.name", "tea"));
        expected.addAll(invocation("Item.cents", "250"));
        expected.addAll(invocation("Item.name", "tea"));
        expected.addAll(invocation("Item.cents", "250"));
        expected.add("exit Describe$.describe -> tea (250 cents)");
        expected.add("tea (250 cents)");
        expected.addAll(invocation("Describe$.describe", "a refund"));
        expected.add("a refund");
        expected.add("-- exception");
        expected.addAll(List.of(
                "enter Cart.pay",
                "exception Cart.pay IllegalArgumentException: negative amount -1",
                "exit Cart.pay -> null"));
        expected.add("refused: negative amount -1");

        assertEquals(String.join("\n", expected), String.join("\n", output));
    }

    /**
     * {@code item.priceWithTax}: Item's forwarder, the trait's default method (reached through
     * a synthetic static accessor), and the abstract {@code price} it calls, which reads
     * {@code cents}.
     */
    private static List<String> priceWithTax(String cents, String withTax) {
        return List.of(
                "enter Item.priceWithTax",
                "enter Priced.priceWithTax",
                "enter Item.price",
                "enter Item.cents",
                "exit Item.cents -> " + cents,
                "exit Item.price -> " + cents,
                "exit Priced.priceWithTax -> " + withTax,
                "exit Item.priceWithTax -> " + withTax);
    }
}

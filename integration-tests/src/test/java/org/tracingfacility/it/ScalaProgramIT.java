package org.tracingfacility.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tracingfacility.it.LanguageProgram.invocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code projects/scala-app}: compiled by scalac 2.13 and by Scala 3 (scala-maven-plugin),
 * enhanced by {@code tf:enhance}, run with a recording monitor that prints every event. The
 * events show what each compiler made of the same source; where the two differ, it is the
 * class files that differ (checked with javap): synthetic and bridge methods are never
 * monitored, and Scala 2.13 and Scala 3 mark different halves of a trait's forwarding so.
 */
class ScalaProgramIT {
    /** The compilers under test, as the project's build selects them. */
    enum Scalac {
        SCALA_2_13(), SCALA_3("-Pscala3");

        final String[] mavenArguments;

        Scalac(String... mavenArguments) {
            this.mavenArguments = mavenArguments;
        }
    }

    @ParameterizedTest
    @EnumSource(Scalac.class)
    void whatScalacMadeOfTraitsCaseClassesPatternsAndClosuresIsTraced(Scalac scalac) throws Exception {
        LanguageProgram program = LanguageProgram.build("scala-app",
                "scala-app-" + scalac.name().toLowerCase(Locale.ROOT), scalac.mavenArguments);

        List<String> output = program.run("com.example.shop.Main");

        assertEquals(String.join("\n", expectedOutput(scalac)), String.join("\n", output));
    }

    static List<String> expectedOutput(Scalac scalac) {
        boolean scala2 = scalac == Scalac.SCALA_2_13;
        List<String> expected = new ArrayList<>();
        expected.add("-- case class");
        if (scala2) {
            // Item("tea", 250): scalac 2 calls the constructor, not the companion's apply. The
            // constructor calls the trait's initializer $init$ (empty here) after super().
            for (int i = 0; i < 2; i++) {
                expected.addAll(List.of(
                        "enter Item.<init>", "enter Priced.$init$", "exit Priced.$init$", "exit Item.<init>"));
            }
        } else {
            // Scala 3 calls the companion's apply (so its initializer runs first), and a trait
            // without state gets no $init$.
            expected.addAll(objectInitialization("Item$"));
            for (int i = 0; i < 2; i++) {
                expected.addAll(List.of(
                        "enter Item$.apply", "enter Item.<init>", "exit Item.<init>", "exit Item$.apply -> <Item>"));
            }
        }
        expected.add("-- trait default method");
        expected.addAll(priceWithTax(scalac, "250", "300"));
        expected.add("tea with tax: 300");
        expected.add("-- closure");
        // The closure's body (a method the compiler lifted into Cart) is not annotated; what it
        // calls is.
        expected.add("enter Cart.total");
        expected.addAll(priceWithTax(scalac, "250", "300"));
        expected.addAll(priceWithTax(scalac, "2000", "2400"));
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
        expected.addAll(objectInitialization("Describe$"));
        // The extractor pattern Item(name, cents), then the guard picks the first case.
        expected.add("enter Describe$.describe");
        expected.addAll(extractItem(scalac, "teapot", "2000"));
        expected.add("exit Describe$.describe -> teapot (expensive)");
        expected.add("teapot (expensive)");
        // The guard fails; the type pattern's case calls the accessors for its string.
        expected.add("enter Describe$.describe");
        expected.addAll(extractItem(scalac, "tea", "250"));
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
        return expected;
    }

    /** An object's static initializer, which creates its MODULE$. */
    private static List<String> objectInitialization(String objectClass) {
        return List.of("enter " + objectClass + ".<clinit>", "enter " + objectClass + ".<init>",
                "exit " + objectClass + ".<init>", "exit " + objectClass + ".<clinit>");
    }

    /**
     * {@code item.priceWithTax}: the trait's default method, reached through Item's forwarder
     * and the trait's static accessor {@code priceWithTax$}; the default method calls the
     * abstract {@code price}, which reads {@code cents}. Scala 2.13 marks the accessor
     * synthetic, Scala 3 the forwarder (a bridge): the other one is monitored.
     */
    private static List<String> priceWithTax(Scalac scalac, String cents, String withTax) {
        String forwarding = scalac == Scalac.SCALA_2_13 ? "Item.priceWithTax" : "Priced.priceWithTax$";
        return List.of(
                "enter " + forwarding,
                "enter Priced.priceWithTax",
                "enter Item.price",
                "enter Item.cents",
                "exit Item.cents -> " + cents,
                "exit Item.price -> " + cents,
                "exit Priced.priceWithTax -> " + withTax,
                "exit " + forwarding + " -> " + withTax);
    }

    /**
     * The pattern {@code Item(name, cents)} on an Item: scalac 2 reads the accessors directly;
     * Scala 3 calls the companion's unapply (which returns the item itself) and then the
     * product accessors {@code _1} and {@code _2}.
     */
    private static List<String> extractItem(Scalac scalac, String name, String cents) {
        if (scalac == Scalac.SCALA_2_13) {
            List<String> events = new ArrayList<>(invocation("Item.name", name));
            events.addAll(invocation("Item.cents", cents));
            return events;
        }
        return List.of(
                "enter Item$.unapply", "exit Item$.unapply -> <Item>",
                "enter Item._1", "enter Item.name", "exit Item.name -> " + name, "exit Item._1 -> " + name,
                "enter Item._2", "enter Item.cents", "exit Item.cents -> " + cents, "exit Item._2 -> " + cents);
    }
}

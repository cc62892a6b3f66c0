package com.example.recording

import org.tracingfacility.runtime.MethodMonitor
import org.tracingfacility.runtime.MethodMonitorFactory
import org.tracingfacility.runtime.MethodMonitorRegistry
import org.tracingfacility.runtime.TimingPointType

/**
 * Prints every event it sees, one line each: `enter Class.method`, `exit Class.method -> result`,
 * `exception Class.method Type: message`. Events on a thread other than `main` end in `(off main)`.
 * A result of the program's own classes is shown as `<Class>`: its `toString` may be monitored
 * code, whose events would interleave.
 */
object Recorder : MethodMonitorFactory {
    override fun create(cls: Class<*>): MethodMonitor = ClassRecorder(cls)
}

private class ClassRecorder(private val cls: Class<*>) : MethodMonitor {
    private val className = cls.name.substringAfterLast('.')

    override fun myClass(): Class<*> = cls

    override fun enter(ident: Int, vararg args: Any?) = record("enter", ident, "")

    override fun info(args: Array<Any?>, callerIdent: Int, selfIdent: Int, tpType: TimingPointType) =
        record("info", selfIdent, "")

    override fun exit(ident: Int) = record("exit", ident, "")

    override fun exit(ident: Int, result: Any?) = record("exit", ident, " -> ${render(result)}")

    override fun exception(ident: Int, thr: Throwable) =
        record("exception", ident, " ${thr.javaClass.simpleName}: ${thr.message}")

    override fun clear() {}

    private fun render(value: Any?): String =
        if (value != null && value.javaClass.name.startsWith("com.example.")) "<${value.javaClass.simpleName}>"
        else value.toString()

    private fun record(event: String, ident: Int, detail: String) {
        val method = MethodMonitorRegistry.methodName(cls, ident)
        val thread = if (Thread.currentThread().name == "main") "" else " (off main)"
        println("$event $className.$method$detail$thread")
    }
}

package com.example.recording

import org.tracingfacility.runtime.{MethodMonitor, MethodMonitorFactory, MethodMonitorRegistry, TimingPointType}

/**
 * Prints every event it sees, one line each: `enter Class.method`, `exit Class.method -> result`,
 * `exception Class.method Type: message`. A result of the program's own classes is shown as
 * `<Class>`: its `toString` may be monitored code, whose events would interleave.
 */
object Recorder extends MethodMonitorFactory {
  override def create(cls: Class[_]): MethodMonitor = new ClassRecorder(cls)
}

private final class ClassRecorder(cls: Class[_]) extends MethodMonitor {
  private val className = cls.getName.substring(cls.getName.lastIndexOf('.') + 1)

  override def myClass(): Class[_] = cls

  override def enter(ident: Int, args: AnyRef*): Unit = record("enter", ident, "")

  override def info(args: Array[AnyRef], callerIdent: Int, selfIdent: Int, tpType: TimingPointType): Unit =
    record("info", selfIdent, "")

  override def exit(ident: Int): Unit = record("exit", ident, "")

  override def exit(ident: Int, result: AnyRef): Unit = record("exit", ident, s" -> ${render(result)}")

  override def exception(ident: Int, thr: Throwable): Unit =
    record("exception", ident, s" ${thr.getClass.getSimpleName}: ${thr.getMessage}")

  override def clear(): Unit = ()

  private def render(value: AnyRef): String =
    if (value != null && value.getClass.getName.startsWith("com.example.")) s"<${value.getClass.getSimpleName}>"
    else String.valueOf(value)

  private def record(event: String, ident: Int, detail: String): Unit =
    println(s"$event $className.${MethodMonitorRegistry.methodName(cls, ident)}$detail")
}

import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running);
});

/** A POST to /rpc/<name> with a raw body of the given type, as PostgREST takes text, xml and bytes. */
async function postRaw(name: string, contentType: string, body: BodyInit) {
  const res = await fetch(`${running.url}/rest/v1/rpc/${name}`, {
    method: "POST",
    headers: { apikey: running.anonKey, "Content-Type": contentType },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("rpc overloads", () => {
  it("chooses the overload whose argument names are given, by POST and by GET", async () => {
    expect((await db.rpc("pick", { a: 1 })).data).toBe("a=1");
    expect((await db.rpc("pick", { a: 1, b: 2 })).data).toBe("a=1,b=2");
    expect((await db.rpc("pick", { c: "x" })).data).toBe("c=x");
    expect((await db.rpc("pick")).data).toBe("c=none");
    expect((await db.rpc("pick", { a: 3, b: 4 }, { get: true })).data).toBe("a=3,b=4");
    expect((await db.rpc("pick", { a: 5 }, { get: true })).data).toBe("a=5");
  });

  it("answers 404 PGRST202 with the closest argument list as a hint", async () => {
    const { status, error } = await db.rpc("pick", { a: 1, d: 2 });
    expect(status).toBe(404);
    expect(error).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.pick(a, d) in the schema cache",
      details:
        "Searched for the function public.pick with parameters a, d or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function public.pick(a, b)",
    });
    const byGet = await db.rpc("add_them", { a: 1 }, { get: true });
    expect(byGet.error).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.add_them(a) in the schema cache",
      details:
        "Searched for the function public.add_them with parameter a, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function public.add_them(a, b)",
    });
  });

  it("takes a GET parameter that is no filter as an argument name", async () => {
    const { status, error } = await db.rpc("add_them", { a: 1, b: 2, c: 3 }, { get: true });
    expect(status).toBe(404);
    expect(error).toMatchObject({
      code: "PGRST202",
      message: "Could not find the function public.add_them(a, b, c) in the schema cache",
    });
    const filtered = await db.rpc("messages_in", { channel_slug: "general" }, { get: true }).eq("id", 2).select("id");
    expect(filtered.error).toBeNull();
    expect(filtered.data).toEqual([{ id: 2 }]);
  });

  it("hints at the closest function name, or none, for an unknown function", async () => {
    const close = await db.rpc("add_theme");
    expect(close.error).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.add_theme without parameters in the schema cache",
      details:
        "Searched for the function public.add_theme without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function public.add_them",
    });
    const far = await db.rpc("zzzzqqqq", { x: 1 });
    expect(far.error?.hint).toBeNull();
  });

  it("answers 300 PGRST203 listing the overloads it cannot choose between, in PostgREST's order", async () => {
    const { status, error } = await db.rpc("twin", { x: 1 });
    expect(status).toBe(300);
    expect(error).toEqual({
      code: "PGRST203",
      message:
        "Could not choose the best candidate function between: public.twin(x => integer), public.twin(x => text)",
      details: null,
      hint: "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    });
  });

  it("gives a JSON body to the single unnamed json parameter, and raw bodies to text, xml and bytea", async () => {
    expect((await db.rpc("raw_body", { k: "v" })).data).toBe("json:v");
    expect(await postRaw("raw_body", "text/plain", "hello")).toEqual({ status: 200, body: "text:hello" });
    expect(await postRaw("raw_body", "text/xml", "<a>1</a>")).toEqual({ status: 200, body: "xml:<a>1</a>" });
    const bytes = new Uint8Array([0, 255, 10, 13, 128]);
    expect(await postRaw("raw_body", "application/octet-stream", bytes)).toEqual({ status: 200, body: "bytea:5" });
  });

  it("answers PGRST202 for a raw body no function takes, without a hint", async () => {
    expect(await postRaw("add_them", "text/plain", "1")).toEqual({
      status: 404,
      body: {
        code: "PGRST202",
        message: "Could not find the function public.add_them in the schema cache",
        details:
          "Searched for the function public.add_them with a single unnamed text parameter, but no matches were found in the schema cache.",
        hint: null,
      },
    });
  });

  it("gives the whole body to a single json parameter with Prefer: params=single-object", async () => {
    const single = "params=single-object";
    const { data, error } = await db.rpc("named_json", { n: 1 }).setHeader("Prefer", single);
    expect(error).toBeNull();
    expect(data).toEqual({ n: 1 });
    const missing = await db.rpc("add_them", { a: 1, b: 2 }).setHeader("Prefer", single);
    expect(missing.status).toBe(404);
    expect(missing.error).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.add_them in the schema cache",
      details:
        "Searched for the function public.add_them with a single json/jsonb parameter, but no matches were found in the schema cache.",
      hint: null,
    });
  });

  it("calls a single named json parameter by its name only", async () => {
    expect((await db.rpc("named_json", { payload: { n: 1 } })).data).toEqual({ n: 1 });
    const { status, error } = await db.rpc("named_json", { n: 1 });
    expect(status).toBe(404);
    expect(error?.code).toBe("PGRST202");
  });
  it("serves a function of unnamed parameters only when it has one, of a type a raw body can be", async () => {
    // The text one takes the whole JSON body; the boolean and integer ones are not served at all.
    expect(await db.rpc("unnamed_overload", { "": "foo" })).toMatchObject({ status: 200, data: 'text: {"":"foo"}' });
    expect(await db.rpc("unnamed_overload", { "": true })).toMatchObject({ status: 200, data: 'text: {"":true}' });

    const alone = await db.rpc("unnamed_integer", { "": 1 });
    expect(alone.status).toBe(404);
    expect(alone.error).toMatchObject({
      code: "PGRST202",
      message: "Could not find the function public.unnamed_integer() in the schema cache",
      hint: "Perhaps you meant to call the function public.unnamed_or_none",
    });
    expect((await db.rpc("unnamed_pair", { "": 1 })).error).toMatchObject({ code: "PGRST202" });

    // Without arguments, the one without parameters and the text one with a default are left.
    const none = await db.rpc("unnamed_or_none");
    expect(none.status).toBe(300);
    expect(none.error?.message).toBe(
      "Could not choose the best candidate function between: public.unnamed_or_none(), public.unnamed_or_none( => text)",
    );
  });
});

// The address group an anonymous upload is counted under (issue 20 §5, ADR 049): IPv4 as it is, IPv6 by its /64.
import { describe, expect, it } from "vitest";
import { addressGroup } from "../../server/documents/quota";

describe("addressGroup", () => {
  it("keeps an IPv4 address, also when it comes IPv4-mapped", () => {
    expect(addressGroup("203.0.113.9")).toBe("203.0.113.9");
    expect(addressGroup("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressGroup("::FFFF:cb00:7109")).toBe("203.0.113.9");
  });

  it("groups IPv6 by /64, however the address is written", () => {
    const group = "2001:db8:0:a::/64";
    for (const ip of [
      "2001:db8:0:a::1",
      "2001:0DB8:0000:000A:1234:5678:9abc:def0",
      "2001:db8::a:0:0:0:2",
      "2001:db8:0:a::10.1.2.3",
      "2001:db8:0:a::7%eth0",
    ])
      expect(addressGroup(ip), ip).toBe(group);
    expect(addressGroup("2001:db8:0:b::1")).toBe("2001:db8:0:b::/64");
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
    expect(addressGroup("::")).toBe("0:0:0:0::/64");
  });

  it("puts what is not an address into one shared group", () => {
    for (const ip of ["", null, undefined, "localhost", "203.0.113.256", "1::2::3"]) expect(addressGroup(ip)).toBe("unknown");
  });
});

// 'Share On' (issue 25 item 3, spec 3 §2 "Referrals"): plain links that open the service's own share page with the
// referral link and a short message. No script, image or font from those services is loaded by the portal.

export interface ShareLink {
  id: "email" | "whatsapp" | "x" | "linkedin" | "facebook" | "weibo" | "line" | "telegram";
  href: string;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString().replace(/\+/g, "%20");

/** The first three are offered at once; the others under 'more…'. */
export function shareLinks(link: string, message: string, subject: string): { main: ShareLink[]; more: ShareLink[] } {
  const text = `${message} ${link}`;
  return {
    main: [
      { id: "email", href: `mailto:?${q({ subject, body: text })}` },
      { id: "whatsapp", href: `https://wa.me/?${q({ text })}` },
      { id: "x", href: `https://x.com/intent/post?${q({ text: message, url: link })}` },
    ],
    more: [
      { id: "linkedin", href: `https://www.linkedin.com/sharing/share-offsite/?${q({ url: link })}` },
      { id: "facebook", href: `https://www.facebook.com/sharer/sharer.php?${q({ u: link })}` },
      { id: "weibo", href: `https://service.weibo.com/share/share.php?${q({ url: link, title: message })}` },
      { id: "line", href: `https://social-plugins.line.me/lineit/share?${q({ url: link, text: message })}` },
      { id: "telegram", href: `https://t.me/share/url?${q({ url: link, text: message })}` },
    ],
  };
}

// Areas of study: a three-level taxonomy (field → discipline → specialty) with
// names in the five site languages. Ids are fixed so that orders, rush rules and
// reports can refer to them; the placeholder 'Undetermined' is id 494 under 493
// (spec 1 §3). Orders always point at a level-3 area.

export interface AreaSeed {
  id: number;
  parentId: number | null;
  level: 1 | 2 | 3;
  en: string;
  zh: string;
  ja: string;
  pt: string;
  es: string;
}

type Names = [en: string, zh: string, ja: string, pt: string, es: string];
type Leaf = [id: number, ...names: Names];
type Discipline = { id: number; names: Names; leaves: Leaf[] };
type Field = { id: number; names: Names; disciplines: Discipline[] };

const TAXONOMY: Field[] = [
  {
    id: 1,
    names: ["Life Sciences", "生命科学", "生命科学", "Ciências da Vida", "Ciencias de la Vida"],
    disciplines: [
      {
        id: 10,
        names: ["Biology", "生物学", "生物学", "Biologia", "Biología"],
        leaves: [
          [100, "Cell Biology", "细胞生物学", "細胞生物学", "Biologia Celular", "Biología Celular"],
          [101, "Molecular Biology", "分子生物学", "分子生物学", "Biologia Molecular", "Biología Molecular"],
          [102, "Genetics", "遗传学", "遺伝学", "Genética", "Genética"],
          [103, "Microbiology", "微生物学", "微生物学", "Microbiologia", "Microbiología"],
          [104, "Ecology", "生态学", "生態学", "Ecologia", "Ecología"],
          [105, "Developmental Biology", "发育生物学", "発生生物学", "Biologia do Desenvolvimento", "Biología del Desarrollo"],
        ],
      },
      {
        id: 11,
        names: [
          "Biochemistry and Biophysics",
          "生物化学与生物物理学",
          "生化学・生物物理学",
          "Bioquímica e Biofísica",
          "Bioquímica y Biofísica",
        ],
        leaves: [
          [106, "Biochemistry", "生物化学", "生化学", "Bioquímica", "Bioquímica"],
          [107, "Structural Biology", "结构生物学", "構造生物学", "Biologia Estrutural", "Biología Estructural"],
          [108, "Biophysics", "生物物理学", "生物物理学", "Biofísica", "Biofísica"],
        ],
      },
      {
        id: 12,
        names: [
          "Agricultural and Food Sciences",
          "农业与食品科学",
          "農学・食品科学",
          "Ciências Agrárias e de Alimentos",
          "Ciencias Agrarias y de los Alimentos",
        ],
        leaves: [
          [109, "Agronomy", "农学", "農学", "Agronomia", "Agronomía"],
          [110, "Food Science", "食品科学", "食品科学", "Ciência de Alimentos", "Ciencia de los Alimentos"],
          [111, "Veterinary Science", "兽医学", "獣医学", "Medicina Veterinária", "Veterinaria"],
          [112, "Plant Science", "植物科学", "植物科学", "Botânica", "Botánica"],
        ],
      },
      {
        id: 13,
        names: ["Neuroscience", "神经科学", "神経科学", "Neurociência", "Neurociencia"],
        leaves: [
          [
            113,
            "Cellular and Molecular Neuroscience",
            "细胞与分子神经科学",
            "細胞・分子神経科学",
            "Neurociência Celular e Molecular",
            "Neurociencia Celular y Molecular",
          ],
          [114, "Cognitive Neuroscience", "认知神经科学", "認知神経科学", "Neurociência Cognitiva", "Neurociencia Cognitiva"],
        ],
      },
    ],
  },
  {
    id: 2,
    names: ["Medicine and Health", "医学与健康", "医学・健康科学", "Medicina e Saúde", "Medicina y Salud"],
    disciplines: [
      {
        id: 20,
        names: ["Clinical Medicine", "临床医学", "臨床医学", "Medicina Clínica", "Medicina Clínica"],
        leaves: [
          [120, "Cardiology", "心脏病学", "循環器内科学", "Cardiologia", "Cardiología"],
          [121, "Oncology", "肿瘤学", "腫瘍学", "Oncologia", "Oncología"],
          [122, "Neurology", "神经病学", "神経内科学", "Neurologia", "Neurología"],
          [123, "Endocrinology", "内分泌学", "内分泌学", "Endocrinologia", "Endocrinología"],
          [124, "Gastroenterology", "胃肠病学", "消化器病学", "Gastroenterologia", "Gastroenterología"],
          [125, "Pediatrics", "儿科学", "小児科学", "Pediatria", "Pediatría"],
          [126, "Psychiatry", "精神病学", "精神医学", "Psiquiatria", "Psiquiatría"],
          [127, "Infectious Diseases", "传染病学", "感染症学", "Doenças Infecciosas", "Enfermedades Infecciosas"],
        ],
      },
      {
        id: 21,
        names: ["Surgery", "外科学", "外科学", "Cirurgia", "Cirugía"],
        leaves: [
          [128, "General Surgery", "普通外科学", "一般外科学", "Cirurgia Geral", "Cirugía General"],
          [129, "Orthopedics", "骨科学", "整形外科学", "Ortopedia", "Ortopedia"],
          [130, "Ophthalmology", "眼科学", "眼科学", "Oftalmologia", "Oftalmología"],
        ],
      },
      {
        id: 22,
        names: ["Public Health", "公共卫生", "公衆衛生学", "Saúde Pública", "Salud Pública"],
        leaves: [
          [131, "Epidemiology", "流行病学", "疫学", "Epidemiologia", "Epidemiología"],
          [132, "Nutrition", "营养学", "栄養学", "Nutrição", "Nutrición"],
          [133, "Nursing", "护理学", "看護学", "Enfermagem", "Enfermería"],
        ],
      },
      {
        id: 23,
        names: ["Pharmaceutical Sciences", "药学", "薬学", "Ciências Farmacêuticas", "Ciencias Farmacéuticas"],
        leaves: [
          [134, "Pharmacology", "药理学", "薬理学", "Farmacologia", "Farmacología"],
          [135, "Medicinal Chemistry", "药物化学", "医薬品化学", "Química Medicinal", "Química Médica"],
        ],
      },
      {
        id: 24,
        names: ["Dentistry", "口腔医学", "歯学", "Odontologia", "Odontología"],
        leaves: [
          [136, "Oral Surgery", "口腔外科学", "口腔外科学", "Cirurgia Oral", "Cirugía Oral"],
          [137, "Orthodontics", "口腔正畸学", "歯科矯正学", "Ortodontia", "Ortodoncia"],
        ],
      },
    ],
  },
  {
    id: 3,
    names: ["Physical Sciences", "物理科学", "物理科学", "Ciências Físicas", "Ciencias Físicas"],
    disciplines: [
      {
        id: 30,
        names: ["Physics", "物理学", "物理学", "Física", "Física"],
        leaves: [
          [
            140,
            "Condensed Matter Physics",
            "凝聚态物理学",
            "物性物理学",
            "Física da Matéria Condensada",
            "Física de la Materia Condensada",
          ],
          [141, "Optics and Photonics", "光学与光子学", "光学・フォトニクス", "Óptica e Fotônica", "Óptica y Fotónica"],
          [
            142,
            "Particle and Nuclear Physics",
            "粒子与核物理学",
            "素粒子・原子核物理学",
            "Física de Partículas e Nuclear",
            "Física de Partículas y Nuclear",
          ],
          [143, "Astrophysics", "天体物理学", "天体物理学", "Astrofísica", "Astrofísica"],
        ],
      },
      {
        id: 31,
        names: ["Chemistry", "化学", "化学", "Química", "Química"],
        leaves: [
          [144, "Organic Chemistry", "有机化学", "有機化学", "Química Orgânica", "Química Orgánica"],
          [145, "Inorganic Chemistry", "无机化学", "無機化学", "Química Inorgânica", "Química Inorgánica"],
          [146, "Physical Chemistry", "物理化学", "物理化学", "Físico-Química", "Química Física"],
          [147, "Analytical Chemistry", "分析化学", "分析化学", "Química Analítica", "Química Analítica"],
        ],
      },
      {
        id: 32,
        names: ["Mathematics", "数学", "数学", "Matemática", "Matemáticas"],
        leaves: [
          [148, "Pure Mathematics", "纯粹数学", "純粋数学", "Matemática Pura", "Matemáticas Puras"],
          [149, "Applied Mathematics", "应用数学", "応用数学", "Matemática Aplicada", "Matemáticas Aplicadas"],
          [150, "Statistics", "统计学", "統計学", "Estatística", "Estadística"],
        ],
      },
      {
        id: 33,
        names: ["Materials Science", "材料科学", "材料科学", "Ciência dos Materiais", "Ciencia de Materiales"],
        leaves: [
          [151, "Nanomaterials", "纳米材料", "ナノ材料", "Nanomateriais", "Nanomateriales"],
          [152, "Polymers", "高分子材料", "高分子材料", "Polímeros", "Polímeros"],
        ],
      },
    ],
  },
  {
    id: 4,
    names: ["Engineering and Technology", "工程与技术", "工学・技術", "Engenharia e Tecnologia", "Ingeniería y Tecnología"],
    disciplines: [
      {
        id: 40,
        names: [
          "Electrical and Electronic Engineering",
          "电气与电子工程",
          "電気電子工学",
          "Engenharia Elétrica e Eletrônica",
          "Ingeniería Eléctrica y Electrónica",
        ],
        leaves: [
          [160, "Power Systems", "电力系统", "電力システム", "Sistemas de Potência", "Sistemas de Potencia"],
          [161, "Signal Processing", "信号处理", "信号処理", "Processamento de Sinais", "Procesamiento de Señales"],
          [162, "Telecommunications", "通信工程", "通信工学", "Telecomunicações", "Telecomunicaciones"],
        ],
      },
      {
        id: 41,
        names: ["Computer Science", "计算机科学", "計算機科学", "Ciência da Computação", "Informática"],
        leaves: [
          [163, "Artificial Intelligence", "人工智能", "人工知能", "Inteligência Artificial", "Inteligencia Artificial"],
          [164, "Software Engineering", "软件工程", "ソフトウェア工学", "Engenharia de Software", "Ingeniería de Software"],
          [
            165,
            "Computer Networks and Security",
            "计算机网络与安全",
            "コンピュータネットワーク・セキュリティ",
            "Redes de Computadores e Segurança",
            "Redes de Computadoras y Seguridad",
          ],
        ],
      },
      {
        id: 42,
        names: ["Mechanical Engineering", "机械工程", "機械工学", "Engenharia Mecânica", "Ingeniería Mecánica"],
        leaves: [
          [166, "Fluid Mechanics", "流体力学", "流体力学", "Mecânica dos Fluidos", "Mecánica de Fluidos"],
          [167, "Robotics", "机器人学", "ロボット工学", "Robótica", "Robótica"],
        ],
      },
      {
        id: 43,
        names: ["Civil Engineering", "土木工程", "土木工学", "Engenharia Civil", "Ingeniería Civil"],
        leaves: [
          [168, "Structural Engineering", "结构工程", "構造工学", "Engenharia Estrutural", "Ingeniería Estructural"],
          [169, "Transportation Engineering", "交通工程", "交通工学", "Engenharia de Transportes", "Ingeniería del Transporte"],
        ],
      },
      {
        id: 44,
        names: [
          "Chemical and Biomedical Engineering",
          "化学与生物医学工程",
          "化学工学・生体医工学",
          "Engenharia Química e Biomédica",
          "Ingeniería Química y Biomédica",
        ],
        leaves: [
          [170, "Chemical Engineering", "化学工程", "化学工学", "Engenharia Química", "Ingeniería Química"],
          [171, "Biomedical Engineering", "生物医学工程", "生体医工学", "Engenharia Biomédica", "Ingeniería Biomédica"],
        ],
      },
    ],
  },
  {
    id: 5,
    names: [
      "Earth and Environmental Sciences",
      "地球与环境科学",
      "地球・環境科学",
      "Ciências da Terra e Ambientais",
      "Ciencias de la Tierra y del Medio Ambiente",
    ],
    disciplines: [
      {
        id: 50,
        names: ["Geosciences", "地球科学", "地球科学", "Geociências", "Geociencias"],
        leaves: [
          [180, "Geology", "地质学", "地質学", "Geologia", "Geología"],
          [181, "Oceanography", "海洋学", "海洋学", "Oceanografia", "Oceanografía"],
          [182, "Atmospheric Science", "大气科学", "大気科学", "Ciências Atmosféricas", "Ciencias de la Atmósfera"],
        ],
      },
      {
        id: 51,
        names: ["Environmental Science", "环境科学", "環境科学", "Ciências Ambientais", "Ciencias Ambientales"],
        leaves: [
          [183, "Climate Change", "气候变化", "気候変動", "Mudanças Climáticas", "Cambio Climático"],
          [184, "Environmental Pollution", "环境污染", "環境汚染", "Poluição Ambiental", "Contaminación Ambiental"],
          [185, "Conservation Biology", "保护生物学", "保全生物学", "Biologia da Conservação", "Biología de la Conservación"],
        ],
      },
    ],
  },
  {
    id: 6,
    names: ["Social Sciences", "社会科学", "社会科学", "Ciências Sociais", "Ciencias Sociales"],
    disciplines: [
      {
        id: 60,
        names: ["Psychology", "心理学", "心理学", "Psicologia", "Psicología"],
        leaves: [
          [190, "Clinical Psychology", "临床心理学", "臨床心理学", "Psicologia Clínica", "Psicología Clínica"],
          [191, "Developmental Psychology", "发展心理学", "発達心理学", "Psicologia do Desenvolvimento", "Psicología del Desarrollo"],
          [192, "Social Psychology", "社会心理学", "社会心理学", "Psicologia Social", "Psicología Social"],
        ],
      },
      {
        id: 61,
        names: ["Education", "教育学", "教育学", "Educação", "Educación"],
        leaves: [
          [193, "Higher Education", "高等教育", "高等教育", "Ensino Superior", "Educación Superior"],
          [194, "Language Teaching", "语言教学", "語学教育", "Ensino de Línguas", "Enseñanza de Idiomas"],
        ],
      },
      {
        id: 62,
        names: [
          "Sociology and Political Science",
          "社会学与政治学",
          "社会学・政治学",
          "Sociologia e Ciência Política",
          "Sociología y Ciencia Política",
        ],
        leaves: [
          [195, "Sociology", "社会学", "社会学", "Sociologia", "Sociología"],
          [196, "Political Science", "政治学", "政治学", "Ciência Política", "Ciencia Política"],
          [197, "International Relations", "国际关系", "国際関係論", "Relações Internacionais", "Relaciones Internacionales"],
        ],
      },
      {
        id: 63,
        names: ["Law", "法学", "法学", "Direito", "Derecho"],
        leaves: [
          [198, "Constitutional Law", "宪法学", "憲法学", "Direito Constitucional", "Derecho Constitucional"],
          [199, "International Law", "国际法", "国際法", "Direito Internacional", "Derecho Internacional"],
        ],
      },
    ],
  },
  {
    id: 7,
    names: ["Humanities", "人文学科", "人文学", "Ciências Humanas", "Humanidades"],
    disciplines: [
      {
        id: 70,
        names: ["History", "历史学", "歴史学", "História", "Historia"],
        leaves: [
          [200, "Ancient History", "古代史", "古代史", "História Antiga", "Historia Antigua"],
          [201, "Modern History", "近现代史", "近現代史", "História Moderna", "Historia Moderna"],
        ],
      },
      {
        id: 71,
        names: ["Philosophy", "哲学", "哲学", "Filosofia", "Filosofía"],
        leaves: [
          [202, "Ethics", "伦理学", "倫理学", "Ética", "Ética"],
          [203, "Philosophy of Science", "科学哲学", "科学哲学", "Filosofia da Ciência", "Filosofía de la Ciencia"],
        ],
      },
      {
        id: 72,
        names: ["Linguistics and Literature", "语言学与文学", "言語学・文学", "Linguística e Literatura", "Lingüística y Literatura"],
        leaves: [
          [204, "Linguistics", "语言学", "言語学", "Linguística", "Lingüística"],
          [205, "Comparative Literature", "比较文学", "比較文学", "Literatura Comparada", "Literatura Comparada"],
        ],
      },
      {
        id: 73,
        names: ["Arts", "艺术学", "芸術学", "Artes", "Artes"],
        leaves: [
          [206, "Art History", "艺术史", "美術史", "História da Arte", "Historia del Arte"],
          [207, "Musicology", "音乐学", "音楽学", "Musicologia", "Musicología"],
        ],
      },
    ],
  },
  {
    id: 8,
    names: ["Business and Economics", "商业与经济", "ビジネス・経済学", "Negócios e Economia", "Empresa y Economía"],
    disciplines: [
      {
        id: 80,
        names: ["Economics", "经济学", "経済学", "Economia", "Economía"],
        leaves: [
          [210, "Microeconomics", "微观经济学", "ミクロ経済学", "Microeconomia", "Microeconomía"],
          [211, "Macroeconomics", "宏观经济学", "マクロ経済学", "Macroeconomia", "Macroeconomía"],
          [212, "Development Economics", "发展经济学", "開発経済学", "Economia do Desenvolvimento", "Economía del Desarrollo"],
        ],
      },
      {
        id: 81,
        names: ["Management", "管理学", "経営学", "Administração", "Administración"],
        leaves: [
          [213, "Finance", "金融学", "ファイナンス", "Finanças", "Finanzas"],
          [214, "Marketing", "市场营销", "マーケティング", "Marketing", "Marketing"],
          [215, "Accounting", "会计学", "会計学", "Contabilidade", "Contabilidad"],
        ],
      },
    ],
  },
  {
    // The fixed placeholder chain for manuscripts whose area is not known yet.
    id: 492,
    names: ["Other", "其他", "その他", "Outros", "Otros"],
    disciplines: [
      {
        id: 493,
        names: ["Other", "其他", "その他", "Outros", "Otros"],
        leaves: [[494, "Undetermined", "未确定", "未定", "Indeterminado", "Indeterminado"]],
      },
    ],
  },
];

/** The placeholder area (spec 1 §3) and its parent. */
export const UNDETERMINED_AREA_ID = 494;
export const UNDETERMINED_PARENT_ID = 493;

function row(id: number, parentId: number | null, level: 1 | 2 | 3, [en, zh, ja, pt, es]: Names): AreaSeed {
  return { id, parentId, level, en, zh, ja, pt, es };
}

/** Parents before children, so inserts satisfy the foreign key. */
export const AREAS_OF_STUDY: AreaSeed[] = [
  ...TAXONOMY.map((f) => row(f.id, null, 1, f.names)),
  ...TAXONOMY.flatMap((f) => f.disciplines.map((d) => row(d.id, f.id, 2, d.names))),
  ...TAXONOMY.flatMap((f) => f.disciplines.flatMap((d) => d.leaves.map(([id, ...names]) => row(id, d.id, 3, names)))),
];
